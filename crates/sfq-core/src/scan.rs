//! Parallel work over an ordered list with in-order consumption: items are
//! processed on a thread pool, results are handed to the consumer strictly in
//! list order, and the consumer can stop the scan. The consumer therefore
//! sees exactly what a sequential scan would, whatever the thread count.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

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

/// A rayon pool with `threads` threads, built once per size.
fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let pools = POOLS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut pools = pools.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&threads) {
        return Ok(p.clone());
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("sfq-worker-{i}"))
        .build()
        .map_err(|e| {
            Error::new(ErrorCode::Internal, format!("cannot start worker threads: {e}"))
        })?;
    let p = Arc::new(p);
    pools.insert(threads, p.clone());
    Ok(p)
}

/// Runs `work` over `items` on `threads` threads and feeds the results to
/// `consume` in item order until it returns [`Flow::Stop`] or the items run
/// out. Items are processed in growing batches so that an early stop wastes
/// little work; cancellation is checked between batches (and `work` may
/// check it itself).
pub fn ordered<'a, I, T, W, C>(
    items: &'a [I],
    threads: usize,
    cancel: &Cancel,
    work: W,
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
        for item in items {
            cancel.check()?;
            if consume(work(item))? == Flow::Stop {
                break;
            }
        }
        return Ok(());
    }
    let pool = pool(threads)?;
    let mut next = 0;
    let mut batch = threads * 4;
    while next < items.len() {
        cancel.check()?;
        let end = (next + batch).min(items.len());
        let results: Vec<T> = pool.install(|| items[next..end].par_iter().map(&work).collect());
        for r in results {
            if consume(r)? == Flow::Stop {
                return Ok(());
            }
        }
        next = end;
        batch = (batch * 2).min(4096);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_arrive_in_order_and_stop_is_honoured() {
        let items: Vec<usize> = (0..10_000).collect();
        for threads in [1, 2, 7] {
            let mut seen = Vec::new();
            ordered(
                &items,
                threads,
                &Cancel::default(),
                |&i| i * 2,
                |r| {
                    seen.push(r);
                    Ok(if seen.len() == 5000 { Flow::Stop } else { Flow::Continue })
                },
            )
            .unwrap();
            assert_eq!(seen, (0..5000).map(|i| i * 2).collect::<Vec<_>>());
        }
    }
}
