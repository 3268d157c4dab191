/* git.exe for Windows programs under Wine, forwarding to Linux's git.
 *
 * Wine starts a Linux program from a Windows one but does not wait for it
 * (nor pass its exit code), so a Windows program under Wine cannot run git
 * itself. This shim hands its command to a Linux server through a spool
 * folder (SFQ_GIT_BRIDGE, run by scripts/wine-git-bridge.mjs): it writes
 * `<id>.req` (its folder, arguments, environment and standard input) and
 * waits for `<id>.res` (exit code, standard output, standard error), which
 * it passes on. Built with mingw-w64 by scripts/test-wine.mjs.
 */
#include <windows.h>
#include <shellapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

typedef struct {
  char *p;
  size_t len, cap;
} Buf;

static void put(Buf *b, const void *d, size_t n) {
  if (b->len + n > b->cap) {
    b->cap = (b->len + n) * 2 + 4096;
    b->p = realloc(b->p, b->cap);
    if (!b->p) ExitProcess(125);
  }
  memcpy(b->p + b->len, d, n);
  b->len += n;
}

static void put_utf8(Buf *b, const wchar_t *w) {
  int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
  char *s = malloc(n > 0 ? n : 1);
  if (!s) ExitProcess(125);
  if (n <= 0) s[0] = 0; else WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
  put(b, s, strlen(s) + 1);
  free(s);
}

static void put_number(Buf *b, long n) {
  char num[32];
  snprintf(num, sizeof num, "%ld", n);
  put(b, num, strlen(num) + 1);
}

/* Standard input, when it is a pipe or a file: a pipe whose writer neither
 * writes nor closes within 200 ms is taken as no input (git reads standard
 * input only for the commands that say so, and their callers write it at
 * once). */
static void put_stdin(Buf *b) {
  HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
  if (in == NULL || in == INVALID_HANDLE_VALUE) return;
  DWORD type = GetFileType(in);
  char chunk[65536];
  DWORD got;
  if (type == FILE_TYPE_DISK) {
    while (ReadFile(in, chunk, sizeof chunk, &got, NULL) && got > 0) put(b, chunk, got);
    return;
  }
  if (type != FILE_TYPE_PIPE) return;
  int idle = 0;
  for (;;) {
    DWORD avail = 0;
    if (!PeekNamedPipe(in, NULL, 0, NULL, &avail, NULL)) return; /* closed: the end */
    if (avail == 0) {
      if (idle >= 200) return;
      Sleep(1);
      idle++;
      continue;
    }
    idle = 0;
    if (!ReadFile(in, chunk, avail < sizeof chunk ? avail : sizeof chunk, &got, NULL) || got == 0) return;
    put(b, chunk, got);
  }
}

static void write_all(HANDLE h, const char *p, size_t n) {
  while (n > 0) {
    DWORD done = 0;
    if (!WriteFile(h, p, n > 1 << 20 ? 1 << 20 : (DWORD)n, &done, NULL) || done == 0) return;
    p += done;
    n -= done;
  }
}

static wchar_t *join(const wchar_t *dir, const wchar_t *id, const wchar_t *ext);

/* A failure of the shim itself, told on stderr and kept in the spool's shim.log. */
static int failed(const wchar_t *spool, const char *what) {
  char line[512];
  snprintf(line, sizeof line, "git (Wine bridge): %s (error %lu, process %lu)\n", what, (unsigned long)GetLastError(), (unsigned long)GetCurrentProcessId());
  fputs(line, stderr);
  wchar_t *log = join(spool, L"shim", L".log");
  HANDLE h = CreateFileW(log, FILE_APPEND_DATA, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_ALWAYS, 0, NULL);
  if (h != INVALID_HANDLE_VALUE) {
    DWORD done;
    WriteFile(h, line, (DWORD)strlen(line), &done, NULL);
    CloseHandle(h);
  }
  return 127;
}

static wchar_t *join(const wchar_t *dir, const wchar_t *id, const wchar_t *ext) {
  size_t n = wcslen(dir) + wcslen(id) + wcslen(ext) + 2;
  wchar_t *s = malloc(n * sizeof(wchar_t));
  if (!s) ExitProcess(125);
  wcscpy(s, dir);
  wcscat(s, L"\\");
  wcscat(s, id);
  wcscat(s, ext);
  return s;
}

int main(void) {
  static wchar_t spool[4096];
  if (!GetEnvironmentVariableW(L"SFQ_GIT_BRIDGE", spool, 4096)) {
    fputs("git (Wine bridge): SFQ_GIT_BRIDGE is not set; run under scripts/test-wine.mjs\n", stderr);
    return 127;
  }
  Buf req = {0};
  static wchar_t cwd[32768];
  GetCurrentDirectoryW(32768, cwd);
  put_utf8(&req, cwd);
  int argc = 0;
  wchar_t **argv = CommandLineToArgvW(GetCommandLineW(), &argc);
  put_number(&req, argc - 1);
  for (int i = 1; i < argc; i++) put_utf8(&req, argv[i]);
  wchar_t *env = GetEnvironmentStringsW();
  long count = 0;
  for (wchar_t *e = env; *e; e += wcslen(e) + 1) count++;
  put_number(&req, count);
  for (wchar_t *e = env; *e; e += wcslen(e) + 1) put_utf8(&req, e);
  put_stdin(&req);

  wchar_t id[64];
  static LONG seq;
  _snwprintf(id, 64, L"%lu-%lu-%ld", (unsigned long)GetCurrentProcessId(), (unsigned long)GetTickCount(), (long)InterlockedIncrement(&seq));
  wchar_t *tmp = join(spool, id, L".tmp"), *reqf = join(spool, id, L".req"), *resf = join(spool, id, L".res");
  HANDLE f = CreateFileW(tmp, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
  if (f == INVALID_HANDLE_VALUE) return failed(spool, "cannot write to the spool folder SFQ_GIT_BRIDGE");
  write_all(f, req.p, req.len);
  CloseHandle(f);
  /* Wine's MoveFileW now and then says ERROR_NOT_ENOUGH_MEMORY, the file
   * moved or not: moved when the temporary name is gone, else tried again
   * for up to a second. */
  for (int tries = 0; !MoveFileW(tmp, reqf); tries++) {
    if (GetFileAttributesW(tmp) == INVALID_FILE_ATTRIBUTES) break;
    if (tries == 200) return failed(spool, "cannot hand the request over (MoveFileW)");
    Sleep(5);
  }

  HANDLE r;
  ULONGLONG started = GetTickCount64();
  for (;;) {
    r = CreateFileW(resf, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_DELETE, NULL, OPEN_EXISTING, 0, NULL);
    if (r != INVALID_HANDLE_VALUE) break;
    if (GetTickCount64() - started > 600000) return failed(spool, "no answer in 10 minutes; is scripts/wine-git-bridge.mjs running?");
    Sleep(2);
  }
  Buf res = {0};
  char chunk[65536];
  DWORD got;
  while (ReadFile(r, chunk, sizeof chunk, &got, NULL) && got > 0) put(&res, chunk, got);
  CloseHandle(r);
  DeleteFileW(resf);
  /* "<code>\0<stdout bytes>\0<stderr bytes>\0" then both outputs */
  put(&res, "", 1);
  char *p = res.p;
  long code = strtol(p, NULL, 10);
  p += strlen(p) + 1;
  size_t out = (size_t)strtoull(p, NULL, 10);
  p += strlen(p) + 1;
  size_t err = (size_t)strtoull(p, NULL, 10);
  p += strlen(p) + 1;
  write_all(GetStdHandle(STD_OUTPUT_HANDLE), p, out);
  write_all(GetStdHandle(STD_ERROR_HANDLE), p + out, err);
  ExitProcess((UINT)code);
}
