/**
 * Where a text stops being JSON: the index of the first character that cannot continue a
 * JSON value (the text's length when it ends too early), or undefined when it is valid.
 * JSON.parse says where only in some of its messages, and not in Node 20's most common
 * one ("Unexpected token '#', … is not valid JSON"), so the position is found by a scan
 * of the grammar (RFC 8259), run only after JSON.parse has refused the text.
 */
export function jsonErrorPosition(text: string): number | undefined {
  let at = 0;
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at])) at++;
  };
  const fail = (): never => {
    throw at;
  };
  const expect = (literal: string) => {
    for (const char of literal) {
      if (text[at] !== char) fail();
      at++;
    }
  };
  const string = () => {
    at++; // the opening quote
    while (at < text.length && text[at] !== '"') {
      if (text.charCodeAt(at) < 0x20) fail();
      if (text[at] === '\\') {
        at++;
        if (text[at] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail();
          at += 4;
        } else if (at >= text.length || !'"\\/bfnrt'.includes(text[at])) fail();
      }
      at++;
    }
    if (at >= text.length) fail();
    at++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!match || match[0] === '' || match[0] === '-') fail();
    at += match![0].length;
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === '{') return members('}', () => (text[at] === '"' ? (string(), space(), expect(':'), value()) : fail()));
    if (char === '[') return members(']', value);
    if (char === '"') return string();
    if (char === 't') return expect('true');
    if (char === 'f') return expect('false');
    if (char === 'n') return expect('null');
    return number();
  };
  const members = (close: string, member: () => void) => {
    at++;
    space();
    if (text[at] === close) return void at++;
    for (;;) {
      space();
      member();
      space();
      if (text[at] === ',') at++;
      else if (text[at] === close) return void at++;
      else fail();
    }
  };
  try {
    value();
    space();
    return at < text.length ? at : undefined;
  } catch (position) {
    return Math.min(position as number, text.length);
  }
}
