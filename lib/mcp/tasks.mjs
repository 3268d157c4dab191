// Background execution (seed 004): a search that is still running when the
// tool call's wait ends keeps running here, under a task id, and is followed
// with task_status / task_result / task_cancel. One registry per server
// process, so two clients (two processes) never see each other's tasks.

/** Finished results are kept this long (seed 004's 10 minutes). */
export const KEEP_MS = 10 * 60 * 1000;
/** At most this many searches run at once; more are refused. */
export const MAX_RUNNING = 32;

/** An error a task tool reports to the client (unknown id, too many tasks). */
export class TaskError extends Error {
  constructor(code, message, argument) {
    super(message);
    this.code = code;
    if (argument !== undefined) this.argument = argument;
  }
}

export class TaskRegistry {
  #tasks = new Map();
  #next = 1;
  #maxRunning;
  #keepMs;
  #now;

  /**
   * @param {{ maxRunning?: number, keepMs?: number, now?: () => number }} [options]
   */
  constructor(options = {}) {
    this.#maxRunning = options.maxRunning ?? MAX_RUNNING;
    this.#keepMs = options.keepMs ?? KEEP_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Searches running now (waited on by a tool call or in the background). */
  get running() {
    let n = 0;
    for (const task of this.#tasks.values()) if (task.status === 'running') n++;
    return n;
  }

  /**
   * Starts `work(signal)` as a task. Throws a TaskError (ETOOMANYTASKS) when
   * MAX_RUNNING searches are already running.
   * @param {string} tool the tool name
   * @param {object} args the tool's arguments, as given
   * @param {(signal: AbortSignal) => Promise<unknown>} work
   */
  start(tool, args, work) {
    if (this.running >= this.#maxRunning) {
      throw new TaskError(
        'ETOOMANYTASKS',
        `${this.#maxRunning} searches are already running, the most this server runs at once; ` +
          'wait for one to finish (task_result) or stop one (task_cancel), then call again',
      );
    }
    const controller = new AbortController();
    const task = {
      id: `task-${this.#next++}`,
      tool,
      args,
      status: 'running',
      startedAt: this.#now(),
      finishedAt: undefined,
      value: undefined,
      error: undefined,
      controller,
      /** Set once the client was told about it (the call answered "running"). */
      announced: false,
      done: undefined,
    };
    task.done = Promise.resolve()
      .then(() => work(controller.signal))
      .then(
        (value) => this.#finish(task, 'completed', value, undefined),
        (error) => this.#finish(task, 'failed', undefined, error),
      );
    this.#tasks.set(task.id, task);
    return task;
  }

  #finish(task, status, value, error) {
    if (task.status !== 'running') return; // cancelled meanwhile: the outcome is dropped
    task.status = status;
    task.value = value;
    task.error = error;
    task.finishedAt = this.#now();
    this.#expire(task);
  }

  #expire(task) {
    if (!task.announced) {
      // Nobody holds its id: the call that started it delivers the outcome.
      this.#tasks.delete(task.id);
      return;
    }
    const timer = setTimeout(() => this.#tasks.delete(task.id), this.#keepMs);
    timer.unref?.();
  }

  /**
   * Waits up to `ms` for `task` to settle. Resolves true when it settled.
   * @param {object} task
   * @param {number} ms
   * @param {AbortSignal} [signal] ends the wait early (resolves false)
   */
  async wait(task, ms, signal) {
    if (task.status !== 'running') return true;
    if (ms <= 0 || signal?.aborted) return false;
    let timer;
    let onAbort;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
      onAbort = () => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([task.done.then(() => true), timeout]);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Makes `task` visible under its id (its call answered "running"). */
  announce(task) {
    task.announced = true;
    this.#tasks.set(task.id, task);
    if (task.status !== 'running') this.#expire(task);
  }

  /** Forgets a task whose outcome its own call delivered. */
  forget(task) {
    if (!task.announced) this.#tasks.delete(task.id);
  }

  /**
   * The announced task `id`; throws a TaskError (ENOTASK) if there is none.
   * @param {string} id
   */
  get(id) {
    const task = this.#tasks.get(id);
    if (task === undefined || !task.announced) {
      throw new TaskError(
        'ENOTASK',
        `no task '${id}' in this session (ids look like 'task-1'; finished tasks are kept for ` +
          `${Math.round(this.#keepMs / 60000)} minutes)`,
        'task_id',
      );
    }
    return task;
  }

  /** The announced tasks, oldest first. */
  list() {
    return [...this.#tasks.values()].filter((t) => t.announced);
  }

  /**
   * Stops a running task: its signal aborts and it is `cancelled` at once.
   * Returns false when it had already finished.
   */
  cancel(task) {
    if (task.status !== 'running') return false;
    task.status = 'cancelled';
    task.finishedAt = this.#now();
    task.controller.abort();
    this.#expire(task);
    return true;
  }

  /** Seconds since `task` started (up to its end once finished), to 0.1 s. */
  elapsedSeconds(task) {
    const end = task.finishedAt ?? this.#now();
    return Math.round((end - task.startedAt) / 100) / 10;
  }

  /** Cancels every running task (the server is shutting down). */
  cancelAll() {
    for (const task of this.#tasks.values()) {
      if (task.status === 'running') {
        task.status = 'cancelled';
        task.finishedAt = this.#now();
        task.controller.abort();
      }
    }
    this.#tasks.clear();
  }
}
