// The io of the real process, for main(argv, io).
//
// A closed stdout ends the CLI quietly, as rg does: when the reader goes away
// (`smart-file-query ... | head -c 50`), writing fails with EPIPE, and the
// process exits 0 with nothing on stderr. Writes resolve only once stdout has
// taken the bytes, so a command that awaits its output prints no warnings
// after a write that failed. Other stdout errors are not swallowed: they are
// rethrown, as an unhandled 'error' event would be.

/**
 * @param {NodeJS.Process} [proc]
 * @returns {{ stdout: (s: string | Uint8Array) => Promise<void>, stderr: (s: string) => void }}
 */
export function processIo(proc = process) {
  let closed = false;
  // (Windows may name a pipe whose reader is gone EOF, libuv's name of ERROR_BROKEN_PIPE.)
  const isClosed = (e) => e !== null && e !== undefined && (e.code === 'EPIPE' || e.code === 'EOF');
  const quit = () => {
    closed = true;
    proc.exit(0);
  };
  proc.stdout.on('error', (e) => {
    if (isClosed(e)) quit();
    else throw e;
  });
  return {
    stdout: (s) =>
      new Promise((resolve) => {
        if (closed) return; // dropped: nobody is reading any more
        proc.stdout.write(s, (e) => {
          if (isClosed(e)) quit();
          else if (!e) resolve();
          // Any other error reaches the 'error' listener above.
        });
      }),
    stderr: (s) => {
      proc.stderr.write(s);
    },
    /**
     * The real process's stdout: the engine may write to fd 1 itself (the
     * default command's JSON, streamed as it is produced) while nothing was
     * written through `stdout` yet. Quits quietly once the reader is gone.
     */
    direct: proc === process,
    quit,
  };
}
