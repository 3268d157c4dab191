#!/usr/bin/env python3
"""Runs one command and prints {"wall": s, "cpu": s, "maxrssKB": n, "status": n} as JSON.

Usage: measure.py [--cwd DIR] -- CMD [ARGS...]   (the command's stdout goes to /dev/null)
CPU is user + system time of the child (and its children), from wait4's rusage; peak RSS
is the child's ru_maxrss. Node cannot read a child's rusage, hence this helper.
"""
import json
import os
import sys
import time

args = sys.argv[1:]
cwd = None
if args[:1] == ["--cwd"]:
    cwd, args = args[1], args[2:]
if args[:1] == ["--"]:
    args = args[1:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    if cwd:
        os.chdir(cwd)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)  # rg searches stdin when it is a pipe
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    try:
        os.execvp(args[0], args)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - start
print(json.dumps({
    "wall": wall,
    "cpu": ru.ru_utime + ru.ru_stime,
    "maxrssKB": ru.ru_maxrss,
    "status": os.waitstatus_to_exitcode(status),
}))
