//! Parallel work over an ordered list with in-order consumption: items are
//! processed on a thread pool, results are handed to the consumer strictly in
//! list order, and the consumer can stop the scan. The consumer therefore
//! sees exactly what a sequential scan would, whatever the thread count.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::cancel::Cancel;
use crate::error::{Error, ErrorCode, Result};

/// What the consumer wants after an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep going.
    Continue,
    /// Stop: no further item is consumed.
    Stop,
}

/// The number of threads to use when the caller does not say.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Items a worker claims at once in [`ordered`]: the consumer gets them
/// together, once the last is done.
pub const CHUNK: usize = 16;

/// [`ordered_in`] with whole batches of [`CHUNK`] (the tests' shorthand).
#[cfg(test)]
pub fn ordered<'a, I, T, W, C>(
    items: &'a [I],
    threads: usize,
    cancel: &Cancel,
    work: W,
    consume: C,
) -> Result<()>
where
    I: Sync,
    T: Send,
    W: Fn(&'a I) -> T + Sync,
    C: FnMut(T) -> Result<Flow>,
{
    ordered_in(items, threads, Batching::whole(CHUNK), cancel, work, |_| 0, consume)
}

/// How a worker hands its results to the consumer in [`ordered_in`].
#[derive(Debug, Clone, Copy)]
pub struct Batching {
    /// Items a worker claims at once (and hands over together, unless
    /// `flush_weight` says otherwise).
    pub claim: usize,
    /// A worker hands over what it holds of its claim as soon as those
    /// results weigh this much (see the `weigh` argument), instead of
    /// holding them until its whole claim is done: a consumer writing
    /// results out as they come then holds few of them at once, while
    /// items that produce little still travel `claim` at a time.
    pub flush_weight: usize,
    /// Whether the calling thread works chunks too, consuming what the
    /// others handed over between its own chunks (one thread fewer woken for
    /// every message on a machine of few cores), instead of only consuming.
    /// Only for a consumer that may wait: while the calling thread works a
    /// chunk, what the others finished waits for it (a slow file delays the
    /// progress a caller polls), and with a `flush_weight` its own chunk
    /// would be held whole however much it weighs, so it is ignored then.
    pub caller_works: bool,
}

impl Batching {
    /// `claim` items at a time, handed over together.
    pub const fn whole(claim: usize) -> Batching {
        Batching { claim, flush_weight: usize::MAX, caller_works: false }
    }
}

/// [`ordered`] with items claimed and handed over as `batching` says;
/// `weigh` gives each result's weight for `batching.flush_weight`.
pub fn ordered_in<'a, I, T, W, C>(
    items: &'a [I],
    threads: usize,
    batching: Batching,
    cancel: &Cancel,
    work: W,
    weigh: impl Fn(&T) -> usize + Sync,
    mut consume: C,
) -> Result<()>
where
    I: Sync,
    T: Send,
    W: Fn(&'a I) -> T + Sync,
    C: FnMut(T) -> Result<Flow>,
{
    let threads = threads.max(1);
    if threads == 1 {
        let _dirs = crate::dirfd::Scope::enter();
        for item in items {
            cancel.check()?;
            if consume(work(item))? == Flow::Stop {
                break;
            }
        }
        return Ok(());
    }
    // With `caller_works`, the calling thread is one of the `threads` (see
    // `Batching`); else it only consumes.
    let searches = batching.caller_works && batching.flush_weight == usize::MAX;
    let workers = if searches { threads - 1 } else { threads };
    // Items are claimed in chunks (one message per chunk keeps the consumer
    // from handling every small file on its own) and at most `window` chunks
    // ahead of the consumer.
    let chunk = batching.claim.max(1);
    let chunks = items.len().div_ceil(chunk);
    // The same number of items ahead whatever the chunk size.
    let window = (threads * 16 * CHUNK / chunk).max(1);
    let next = AtomicUsize::new(0);
    let consumed = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let range = |c: usize| c * chunk..(c * chunk + chunk).min(items.len());
    // (chunk, results, whether they end the chunk): a chunk's parts come
    // from one worker, so they arrive in order.
    let (tx, rx) = mpsc::channel::<(usize, Vec<T>, bool)>();
    let mut outcome = Ok(());
    // Each call has threads of its own (not a shared pool): a search that
    // runs for minutes never holds up another call's workers, whose scope
    // would otherwise wait for them to be scheduled (one MCP tool call must
    // not block the others).
    std::thread::scope(|scope| {
        for i in 0..workers {
            let tx = tx.clone();
            let (next, consumed, stop, work, weigh, range) =
                (&next, &consumed, &stop, &work, &weigh, &range);
            let spawned = std::thread::Builder::new().name(format!("sfq-worker-{i}")).spawn_scoped(
                scope,
                move || {
                    // A panicking worker never sends its chunk: stop the others,
                    // which could otherwise wait for the window forever (the
                    // panic reaches the caller when the scope ends).
                    let _guard = StopOnPanic(stop);
                    // Files are opened relative to the worker's last directory.
                    let _dirs = crate::dirfd::Scope::enter();
                    loop {
                        if stop.load(Ordering::Relaxed) || cancel.is_cancelled() {
                            return;
                        }
                        let c = next.fetch_add(1, Ordering::Relaxed);
                        if c >= chunks {
                            return;
                        }
                        // Stay within the window (the consumer is behind).
                        while c >= consumed.load(Ordering::Acquire) + window {
                            if stop.load(Ordering::Relaxed) || cancel.is_cancelled() {
                                return;
                            }
                            std::thread::sleep(Duration::from_micros(200));
                        }
                        let range = range(c);
                        let last = range.end;
                        let mut out = Vec::with_capacity(range.len());
                        let mut weight = 0usize;
                        for k in range {
                            if stop.load(Ordering::Relaxed) {
                                return;
                            }
                            let r = work(&items[k]);
                            weight = weight.saturating_add(weigh(&r));
                            out.push(r);
                            if weight >= batching.flush_weight && k + 1 < last {
                                if tx.send((c, std::mem::take(&mut out), false)).is_err() {
                                    return;
                                }
                                weight = 0;
                            }
                        }
                        if tx.send((c, out, true)).is_err() {
                            return;
                        }
                    }
                },
            );
            if let Err(e) = spawned {
                // Without every worker the scan would end early: stop it.
                stop.store(true, Ordering::Relaxed);
                outcome = Err(Error::new(
                    ErrorCode::Internal,
                    format!("cannot start worker threads: {e}"),
                ));
                break;
            }
        }
        drop(tx);
        if outcome.is_err() {
            return;
        }
        // A panicking consumer must release the workers too.
        let _guard = StopOnPanic(&stop);
        // Files are opened relative to the last directory only where the
        // calling thread searches too.
        let _dirs = searches.then(crate::dirfd::Scope::enter);
        let mut ring = Ring::new(window);
        outcome = (|| {
            loop {
                while let Ok((c, results, last)) = rx.try_recv() {
                    ring.put(c, results, last);
                }
                if ring.consume(&mut consume)? == Flow::Stop {
                    return Ok(());
                }
                consumed.store(ring.want, Ordering::Release);
                if ring.want == chunks {
                    return Ok(());
                }
                // A chunk of our own while one is free within the window;
                // otherwise wait for what the others hand over.
                let free = next.load(Ordering::Relaxed);
                if searches && free < chunks && free < ring.want + window && !cancel.is_cancelled()
                {
                    let c = next.fetch_add(1, Ordering::Relaxed);
                    if c < chunks {
                        // Claimed past the window by a race: its slot is
                        // free once the chunks before it are consumed.
                        while c >= ring.want + window {
                            let Ok((other, results, last)) = rx.recv() else { return Ok(()) };
                            ring.put(other, results, last);
                            if ring.consume(&mut consume)? == Flow::Stop {
                                return Ok(());
                            }
                            consumed.store(ring.want, Ordering::Release);
                        }
                        let mut out = Vec::with_capacity(range(c).len());
                        for k in range(c) {
                            if stop.load(Ordering::Relaxed) || cancel.is_cancelled() {
                                return Ok(());
                            }
                            out.push(work(&items[k]));
                        }
                        ring.put(c, out, true);
                    }
                    continue;
                }
                // Every sender gone: the workers ended (cancelled, or a
                // panic that the scope will raise).
                let Ok((c, results, last)) = rx.recv() else { return Ok(()) };
                ring.put(c, results, last);
            }
        })();
        // Stop the workers (one sending afterwards fails).
        stop.store(true, Ordering::Relaxed);
    });
    outcome?;
    // Workers stop early only when cancelled or stopped.
    cancel.check()
}

/// The results of the chunks within the window, waiting for their turn:
/// `slots[c % window]` holds the parts of chunk c received so far and
/// whether the last one came (c is always within the window of the next
/// one wanted).
struct Ring<T> {
    slots: Vec<(Vec<T>, bool)>,
    /// The next chunk to consume.
    want: usize,
}

impl<T> Ring<T> {
    fn new(window: usize) -> Ring<T> {
        Ring { slots: (0..window).map(|_| (Vec::new(), false)).collect(), want: 0 }
    }

    fn put(&mut self, c: usize, results: Vec<T>, last: bool) {
        let window = self.slots.len();
        let slot = &mut self.slots[c % window];
        if slot.0.is_empty() {
            slot.0 = results;
        } else {
            slot.0.extend(results);
        }
        slot.1 |= last;
    }

    /// Feeds `consume` everything that can go in order now.
    fn consume(&mut self, consume: &mut impl FnMut(T) -> Result<Flow>) -> Result<Flow> {
        loop {
            let window = self.slots.len();
            let (results, finished) = std::mem::take(&mut self.slots[self.want % window]);
            if finished {
                self.want += 1;
            }
            for r in results {
                if consume(r)? == Flow::Stop {
                    return Ok(Flow::Stop);
                }
            }
            if !finished {
                return Ok(Flow::Continue);
            }
        }
    }
}

/// Sets the flag when dropped during a panic.
struct StopOnPanic<'a>(&'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_arrive_in_order_and_stop_is_honoured() {
        let items: Vec<usize> = (0..10_000).collect();
        let caller = std::thread::current().id();
        for caller_works in [false, true] {
            for threads in [1, 2, 7] {
                let mut seen = Vec::new();
                let on_caller = AtomicUsize::new(0);
                ordered_in(
                    &items,
                    threads,
                    Batching { caller_works, ..Batching::whole(CHUNK) },
                    &Cancel::default(),
                    |&i| {
                        if std::thread::current().id() == caller {
                            on_caller.fetch_add(1, Ordering::Relaxed);
                        }
                        i * 2
                    },
                    |_| 0,
                    |r| {
                        seen.push(r);
                        Ok(if seen.len() == 5000 { Flow::Stop } else { Flow::Continue })
                    },
                )
                .unwrap();
                assert_eq!(seen, (0..5000).map(|i| i * 2).collect::<Vec<_>>());
                if threads > 1 && !caller_works {
                    // The consumer only consumes (what it reports is current).
                    assert_eq!(on_caller.load(Ordering::Relaxed), 0, "threads {threads}");
                }
            }
        }
    }

    #[test]
    fn results_handed_over_before_their_chunk_is_done_keep_their_order() {
        let items: Vec<usize> = (0..3_000).collect();
        for threads in [1, 2, 5] {
            for flush_weight in [1, 3, 40] {
                let batching = Batching { claim: CHUNK, flush_weight, caller_works: true };
                let mut seen = Vec::new();
                // Heavy items every 7th: parts of various sizes, chunks
                // finishing in any order.
                ordered_in(
                    &items,
                    threads,
                    batching,
                    &Cancel::default(),
                    |&i| i,
                    |&i| if i % 7 == 0 { 5 } else { 1 },
                    |r| {
                        seen.push(r);
                        Ok(if seen.len() == 2_500 { Flow::Stop } else { Flow::Continue })
                    },
                )
                .unwrap();
                assert_eq!(seen, (0..2_500).collect::<Vec<_>>(), "{threads} {flush_weight}");
            }
        }
    }

    /// Results handed over by weight are consumed as they come: the calling
    /// thread then never works an item (a chunk of its own would be held
    /// whole, whatever it weighs).
    #[test]
    fn with_a_flush_weight_the_calling_thread_only_consumes() {
        let items: Vec<usize> = (0..5_000).collect();
        let caller = std::thread::current().id();
        for threads in [2, 3] {
            let on_caller = AtomicUsize::new(0);
            let mut seen = 0;
            ordered_in(
                &items,
                threads,
                Batching { claim: CHUNK, flush_weight: 10, caller_works: true },
                &Cancel::default(),
                |&i| {
                    if std::thread::current().id() == caller {
                        on_caller.fetch_add(1, Ordering::Relaxed);
                    }
                    i
                },
                |_| 1,
                |r| {
                    assert_eq!(r, seen);
                    seen += 1;
                    Ok(Flow::Continue)
                },
            )
            .unwrap();
            assert_eq!(seen, items.len());
            assert_eq!(on_caller.load(Ordering::Relaxed), 0, "threads {threads}");
        }
    }

    #[test]
    fn a_consumer_error_and_a_cancellation_end_the_scan() {
        let items: Vec<usize> = (0..5000).collect();
        for threads in [1, 2, 5] {
            let err = ordered(
                &items,
                threads,
                &Cancel::default(),
                |&i| i,
                |r| {
                    if r == 1234 {
                        Err(Error::new(ErrorCode::Internal, "boom"))
                    } else {
                        Ok(Flow::Continue)
                    }
                },
            )
            .unwrap_err();
            assert_eq!(err.code(), ErrorCode::Internal);

            let cancel = Cancel::default();
            let mut seen = 0;
            let err = ordered(
                &items,
                threads,
                &cancel,
                |&i| i,
                |_| {
                    seen += 1;
                    if seen == 100 {
                        cancel.flag().store(true, Ordering::Relaxed);
                    }
                    Ok(Flow::Continue)
                },
            )
            .unwrap_err();
            assert_eq!(err.code(), ErrorCode::Aborted, "threads {threads}");
        }
    }

    #[test]
    fn a_panic_in_one_item_reaches_the_caller_instead_of_hanging() {
        let items: Vec<usize> = (0..20_000).collect();
        for threads in [2, 3] {
            let r = std::panic::catch_unwind(|| {
                ordered(
                    &items,
                    threads,
                    &Cancel::default(),
                    |&i| {
                        assert!(i != 3, "item 3 fails");
                        i
                    },
                    |_| Ok(Flow::Continue),
                )
            });
            assert!(r.is_err(), "threads {threads}");
            let r = std::panic::catch_unwind(|| {
                ordered(
                    &items,
                    threads,
                    &Cancel::default(),
                    |&i| i,
                    |i| {
                        assert!(i != 3, "consuming item 3 fails");
                        Ok(Flow::Continue)
                    },
                )
            });
            assert!(r.is_err(), "threads {threads}");
        }
    }
}
