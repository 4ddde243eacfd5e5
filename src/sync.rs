//! The synchronisation primitives the handle table, `SharedMap` and the biased lock use, in
//! one place, so that a model-checked build (`--cfg loom`, see `make loom`) can swap in loom's
//! versions, which try every interleaving of the threads in a test (loom's `UnsafeCell` also
//! checks every access to a lock's data against the others). The normal build uses parking_lot's locks and
//! std's atomics, with parking_lot's API (no lock poisoning: a panic inside a call already
//! becomes `MPI_ERR_INTERN`, and the data under a lock is valid after every step).

#[cfg(not(loom))]
pub(crate) use parking_lot::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{fence, AtomicPtr, AtomicU32, AtomicUsize, Ordering};

#[cfg(loom)]
pub(crate) use loom::cell::{ConstPtr, MutPtr, UnsafeCell};
#[cfg(loom)]
pub(crate) use loom::sync::atomic::{fence, AtomicPtr, AtomicU32, AtomicUsize, Ordering};
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
        pub(crate) fn new(value: T) -> Self {
            RwLock(loom::sync::RwLock::new(value))
        }
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

/// `UnsafeCell` with loom's API (`get`/`get_mut` return pointers whose `deref` is unsafe), so
/// that under loom every access to a lock's data is checked against the others.
#[cfg(not(loom))]
mod cell {
    pub(crate) struct UnsafeCell<T>(std::cell::UnsafeCell<T>);
    pub(crate) struct ConstPtr<T>(*const T);
    pub(crate) struct MutPtr<T>(*mut T);

    impl<T> UnsafeCell<T> {
        pub(crate) const fn new(value: T) -> Self {
            UnsafeCell(std::cell::UnsafeCell::new(value))
        }
        pub(crate) fn get(&self) -> ConstPtr<T> {
            ConstPtr(self.0.get())
        }
        pub(crate) fn get_mut(&self) -> MutPtr<T> {
            MutPtr(self.0.get())
        }
    }

    impl<T> ConstPtr<T> {
        /// # Safety
        /// No `&mut T` to the same data may exist while the result is used.
        pub(crate) unsafe fn deref(&self) -> &T {
            // SAFETY: the pointer comes from a live `UnsafeCell`; aliasing is the caller's promise.
            unsafe { &*self.0 }
        }
    }

    impl<T> MutPtr<T> {
        /// # Safety
        /// No other reference to the same data may exist while the result is used.
        #[allow(clippy::mut_from_ref)]
        pub(crate) unsafe fn deref(&self) -> &mut T {
            // SAFETY: the pointer comes from a live `UnsafeCell`; exclusivity is the caller's promise.
            unsafe { &mut *self.0 }
        }
    }
}
#[cfg(not(loom))]
pub(crate) use cell::{ConstPtr, MutPtr, UnsafeCell};
