// Cold-start probe: a fresh Node process imports one Lambda bundle and reports, in ms
// since process start (performance.timeOrigin), when this script began and when the
// bundle's `handler` was ready, and the CPU time the process had used by then (which
// other processes on a busy machine cannot inflate). Nothing else runs.
const boot = performance.now();
const file = process.argv[2];
let loaded;
if (file.endsWith('.cjs')) {
  const { createRequire } = await import('node:module');
  loaded = createRequire(import.meta.url)(file);
} else {
  loaded = await import(`file://${file}`);
}
if (typeof loaded.handler !== 'function') throw new Error(`${file} exports no handler`);
const ready = performance.now();
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ boot, ready, cpu: (cpu.user + cpu.system) / 1000, rss: process.memoryUsage().rss }));
