import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { config } from '../config';

/**
 * Webhook signing secrets are stored encrypted, behind one small interface:
 * - in AWS (WEBHOOK_SECRETS_KMS_KEY_ID set) a KMS-encrypted attribute: KMS Encrypt and
 *   Decrypt under the stack's key, with the subscription as encryption context, so a
 *   ciphertext copied onto another subscription does not decrypt;
 * - locally AES-256-GCM under a 32-byte key kept in `DATA_DIR/webhook-secrets.key`
 *   (WEBHOOK_SECRETS_KEY_FILE), created on first use.
 * A sealed value is `kms:<base64>` or `gcm:<iv>.<tag>.<ciphertext>` (base64), so a store
 * knows which box opened it. Plaintext secrets are never logged.
 */

export interface SecretBox {
  seal(plaintext: string, context: Record<string, string>): Promise<string>;
  open(sealed: string, context: Record<string, string>): Promise<string>;
}

/** Additional authenticated data for GCM: the same context KMS binds. */
const aad = (context: Record<string, string>) =>
  Buffer.from(
    Object.keys(context)
      .sort()
      .map((key) => `${key}=${context[key]}`)
      .join('&'),
  );

/** AES-256-GCM under a local key (the local stack and tests). */
export function localSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The local webhook secret key must be 32 bytes.');
  return {
    async seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `gcm:${iv.toString('base64')}.${cipher.getAuthTag().toString('base64')}.${ciphertext.toString('base64')}`;
    },
    async open(sealed, context) {
      const [iv, tag, ciphertext] = sealed
        .slice('gcm:'.length)
        .split('.')
        .map((part) => Buffer.from(part, 'base64'));
      const decipher = createDecipheriv('aes-256-gcm', key, iv).setAAD(aad(context));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    },
  };
}

/** KMS under `keyId` (AWS). The client is loaded on first use, so bundles that never open a secret pay nothing at init. */
export function kmsSecretBox(keyId: string): SecretBox {
  let client: import('@aws-sdk/client-kms').KMSClient | undefined;
  const kms = async () => {
    const module = await import('@aws-sdk/client-kms');
    client ??= new module.KMSClient({});
    return { client, module };
  };
  return {
    async seal(plaintext, context) {
      const { client, module } = await kms();
      const out = await client.send(new module.EncryptCommand({ KeyId: keyId, Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: context }));
      return `kms:${Buffer.from(out.CiphertextBlob ?? new Uint8Array()).toString('base64')}`;
    },
    async open(sealed, context) {
      const { client, module } = await kms();
      const out = await client.send(
        new module.DecryptCommand({ CiphertextBlob: Buffer.from(sealed.slice('kms:'.length), 'base64'), EncryptionContext: context }),
      );
      return Buffer.from(out.Plaintext ?? new Uint8Array()).toString('utf8');
    },
  };
}

/** Where the local key is kept for a stack whose data is in `dataDir`: WEBHOOK_SECRETS_KEY_FILE, else `dataDir/webhook-secrets.key`. */
export function localKeyFile(dataDir: string): string {
  return config.webhookSecretsKeyFile() ?? join(dataDir, 'webhook-secrets.key');
}

/**
 * Reads (or creates, mode 0600) the local key file. Processes that start at once may all
 * create it: each writes a whole key under a name of its own in the same folder and links
 * it into place. A link never replaces a file, so the first writer wins and every reader
 * finds a whole key, never one still being written. (A rename would replace the winner's.)
 */
export function readOrCreateLocalKey(file: string): Buffer {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(draft, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
      linkSync(draft, file);
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`Cannot create the local key file ${file}.`, { cause: error });
    } finally {
      rmSync(draft, { force: true });
    }
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`The local key file ${file} does not hold a 32-byte key (base64); delete it to have a new one made.`);
  return key;
}

let box: SecretBox | undefined;

/** The box of this process: KMS when the stack names a key, else the local key (WEBHOOK_SECRETS_KEY, or the key file). */
export function secretBox(): SecretBox {
  if (box) return box;
  const keyId = config.webhookSecretsKmsKeyId();
  // WEBHOOK_SECRETS_KEY: the local key itself (base64), for `sam local`'s containers, which cannot write or share the key file.
  const localKey = config.webhookSecretsKey();
  box = keyId ? kmsSecretBox(keyId) : localSecretBox(localKey ? Buffer.from(localKey, 'base64') : readOrCreateLocalKey(localKeyFile(config.dataDir())));
  return box;
}
