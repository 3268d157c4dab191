//! Freeing a call's large values off the calling thread.
//!
//! A cold search of a million-file tree ends by freeing its million
//! candidates, one path each: 50 ms on the calling thread while the other
//! cores idle, before the answer goes back. A value handed to [`later`] is
//! freed by one thread kept for that, after the call returns. At most one
//! value waits for it: when that place is taken, the value is freed where it
//! is (memory stays bounded however fast calls come).

use std::sync::OnceLock;
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};

type Parcel = Box<dyn Send>;

/// Frees `value` on the disposal thread, or here when that thread is
/// still busy with an earlier value or could not be started.
pub(crate) fn later<T: Send + 'static>(value: T) {
    static DISPOSER: OnceLock<Option<SyncSender<Parcel>>> = OnceLock::new();
    let sender = DISPOSER.get_or_init(|| {
        let (send, receive) = sync_channel::<Parcel>(1);
        std::thread::Builder::new()
            .name("sfq-free".into())
            .spawn(move || {
                for parcel in receive {
                    drop(parcel);
                }
            })
            .ok()
            .map(|_| send)
    });
    let parcel: Parcel = Box::new(value);
    match sender {
        Some(s) => match s.try_send(parcel) {
            Ok(()) => {}
            Err(TrySendError::Full(p) | TrySendError::Disconnected(p)) => drop(p),
        },
        None => drop(parcel),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    /// Counts its drops.
    struct Counted(Arc<AtomicUsize>);

    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Every value handed over is freed, whether the disposal thread takes
    /// it or the caller frees it because the thread is busy.
    #[test]
    fn every_value_handed_over_is_freed() {
        let drops = Arc::new(AtomicUsize::new(0));
        for _ in 0..200 {
            super::later(vec![Counted(drops.clone()), Counted(drops.clone())]);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while drops.load(Ordering::SeqCst) < 400 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(drops.load(Ordering::SeqCst), 400);
    }
}
