import { mkdir, readdir, chmod, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * What `npm start` checks before it builds anything, and how DATA_DIR is kept: each
 * refusal is one line that says what to change (StartupError), and DATA_DIR is readable
 * by its owner only (it holds channel access tokens, contact data and the demo keys).
 */

/** A start-up refusal: its message is the one line `npm start` prints. */
export class StartupError extends Error {}

/** Files the stack and the CLI create are the owner's only (0600, folders 0700), whatever umask they were started with. */
export function keepFilesPrivate(): void {
  process.umask(0o077);
}

/** Fails with one line when something already listens on 127.0.0.1:`port` (0 picks a free port: nothing to check). */
export async function checkPortFree(port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? portInUse(port) : error));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

export function portInUse(port: number): StartupError {
  return new StartupError(
    `Port ${port} is in use on 127.0.0.1 (another npm start or another program listens there); stop it or choose another port: PORT=${port + 1} npm start`,
  );
}

/**
 * Makes DATA_DIR usable, or fails with one line: creates it (0700) when missing, checks
 * that it is a folder this process can write (a probe file, which also catches a
 * read-only file system whatever the mode bits say), and narrows what an earlier version
 * left wider: every folder 0700, every file 0600. Returns whether it created the folder,
 * so a start that fails later can remove it rather than leave it half made.
 */
export async function prepareDataDir(dataDir: string): Promise<{ created: boolean }> {
  const existed = await stat(dataDir).then(
    (info) => {
      if (!info.isDirectory()) throw new StartupError(`DATA_DIR ${dataDir} is not a folder; set DATA_DIR to a folder (it is created when missing).`);
      return true;
    },
    () => false,
  );
  if (!existed) {
    await mkdir(dataDir, { recursive: true, mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      throw new StartupError(`Cannot create DATA_DIR ${dataDir}: ${reasonOf(error, dirname(dataDir))}; set DATA_DIR to a folder you can write.`);
    });
  }
  const probe = join(dataDir, `.write-probe-${process.pid}`);
  try {
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (error) {
    if (!existed) await rm(dataDir, { recursive: true, force: true });
    throw new StartupError(
      `DATA_DIR ${dataDir} cannot be written: ${reasonOf(error as NodeJS.ErrnoException, dataDir)}; set DATA_DIR to a folder you can write.`,
    );
  }
  await narrowModes(dataDir);
  return { created: !existed };
}

/** An fs error as a reader would say it. */
export function reasonOf(error: NodeJS.ErrnoException, path: string): string {
  switch (error.code) {
    case 'EROFS':
      return `${path} is on a read-only file system`;
    case 'EACCES':
    case 'EPERM':
      return `${path} is read-only for this user`;
    case 'ENOTDIR':
      return `a part of ${path} is a file, not a folder`;
    case 'ENOSPC':
      return 'the disk is full';
    default:
      return error.code ? `${error.code} on ${path}` : error.message;
  }
}

/** Every folder under `folder` 0700 and every file 0600, `folder` included. */
async function narrowModes(folder: string): Promise<void> {
  await chmod(folder, 0o700);
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) await narrowModes(path);
    else if (entry.isFile()) await chmod(path, 0o600);
  }
}
