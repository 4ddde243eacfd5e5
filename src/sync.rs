//! The synchronisation primitives the handle table and `SharedMap` use, in one place, so that a
//! model-checked build (`--cfg loom`, see `make loom`) can swap in loom's versions, which try
//! every interleaving of the threads in a test. The normal build uses parking_lot's locks and
//! std's atomics, with parking_lot's API (no lock poisoning: a panic inside a call already
//! becomes `MPI_ERR_INTERN`, and the data under a lock is valid after every step).

#[cfg(not(loom))]
pub(crate) use parking_lot::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{fence, AtomicPtr, AtomicUsize, Ordering};

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{fence, AtomicPtr, AtomicUsize, Ordering};
#[cfg(loom)]
pub(crate) use loom::sync::{RwLockReadGuard, RwLockWriteGuard};

/// loom's locks with parking_lot's API: a poisoned lock is a failed model run anyway.
#[cfg(loom)]
mod loom_locks {
    #[derive(Debug, Default)]
    pub(crate) struct Mutex<T>(loom::sync::Mutex<T>);

    impl<T> Mutex<T> {
        pub(crate) fn new(value: T) -> Self {
            Mutex(loom::sync::Mutex::new(value))
        }
        pub(crate) fn lock(&self) -> loom::sync::MutexGuard<'_, T> {
            self.0.lock().expect("a model thread panicked while holding the lock")
        }
    }

    #[derive(Debug, Default)]
    pub(crate) struct RwLock<T>(loom::sync::RwLock<T>);

    impl<T> RwLock<T> {
        pub(crate) fn read(&self) -> loom::sync::RwLockReadGuard<'_, T> {
            self.0.read().expect("a model thread panicked while holding the lock")
        }
        pub(crate) fn write(&self) -> loom::sync::RwLockWriteGuard<'_, T> {
            self.0.write().expect("a model thread panicked while holding the lock")
        }
    }
}
#[cfg(loom)]
pub(crate) use loom_locks::{Mutex, RwLock};
