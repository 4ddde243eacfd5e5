//! The synchronisation primitives the handle table and `SharedMap` use, in one place, so that a
//! model-checked build (`--cfg loom`, see `make loom`) can swap in loom's versions, which try
//! every interleaving of the threads in a test.
//!
//! The normal build uses the standard library's locks, which on Linux are one futex word each
//! and keep no state outside the lock: releasing one in a child process after `fork` (see
//! `crate::fork`) wakes nobody and leaves the lock free. (A lock with a process-wide table of
//! waiting threads, as parking_lot keeps, could be copied into the child while another thread
//! held that table's lock.) The wrappers give them an API without poisoning: a panic inside a
//! call already becomes `MPI_ERR_INTERN`, and the data under a lock is valid after every step.

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{fence, AtomicPtr, AtomicUsize, Ordering};
#[cfg(not(loom))]
pub(crate) use std::sync::{MutexGuard, RwLockReadGuard, RwLockWriteGuard};

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{fence, AtomicPtr, AtomicUsize, Ordering};
#[cfg(loom)]
pub(crate) use loom::sync::{MutexGuard, RwLockReadGuard, RwLockWriteGuard};

#[cfg(loom)]
use loom::sync as inner;
#[cfg(not(loom))]
use std::sync as inner;

/// A mutex whose `lock` cannot fail.
#[derive(Debug, Default)]
pub(crate) struct Mutex<T>(inner::Mutex<T>);

impl<T> Mutex<T> {
    #[cfg(not(loom))]
    pub(crate) const fn new(value: T) -> Self {
        Mutex(inner::Mutex::new(value))
    }
    #[cfg(loom)]
    pub(crate) fn new(value: T) -> Self {
        Mutex(inner::Mutex::new(value))
    }
    pub(crate) fn lock(&self) -> MutexGuard<'_, T> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A read-write lock whose `read` and `write` cannot fail.
#[derive(Debug, Default)]
pub(crate) struct RwLock<T>(inner::RwLock<T>);

impl<T> RwLock<T> {
    pub(crate) fn read(&self) -> RwLockReadGuard<'_, T> {
        self.0.read().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
    pub(crate) fn write(&self) -> RwLockWriteGuard<'_, T> {
        self.0.write().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
