//! Thread cancellation held off for the length of a call that reaches a cancellation point.
//!
//! `pthread_cancel` of a thread that is inside a read, an open or a close (each a cancellation
//! point), or that has a cancel pending when it reaches one, unwinds its stack with glibc's
//! forced unwind. That unwind would run into the `catch_unwind` of the call's boundary, which
//! cannot stop it: the process aborts ("FATAL: exception not rethrown"). So the calls that can
//! reach a cancellation point (`MPIX_Info_set_from_file`, a late read of the command line, a
//! host's error function) hold [`NoCancel`] while they run: a cancel that comes then stays
//! pending, and acts at the caller's next cancellation point after the call has returned
//! whole, with its locks released and its memory freed.
//!
//! Only those calls: every other call reaches no cancellation point (their system calls are
//! futex waits and memory allocation, which are none), and the two `pthread_setcancelstate`
//! calls, each an atomic compare-and-swap in glibc, would cost every call about a quarter of a
//! one-key `MPI_Info_get` (BENCHMARKS.md).
//!
//! Asynchronous cancellation (`PTHREAD_CANCEL_ASYNCHRONOUS`) is not covered: POSIX allows a
//! thread with it enabled to call only `pthread_cancel`, `pthread_setcancelstate` and
//! `pthread_setcanceltype`, and a library can do nothing for a thread that may stop at any
//! instruction.

use std::ffi::c_int;

extern "C" {
    // Not in the libc crate for Linux. POSIX; glibc and musl both define it in libc.so.6 / libc.
    fn pthread_setcancelstate(state: c_int, oldstate: *mut c_int) -> c_int;
}

/// `PTHREAD_CANCEL_DISABLE` in glibc's and musl's `<pthread.h>` (ENABLE is 0).
const PTHREAD_CANCEL_DISABLE: c_int = 1;

/// While it lives, the calling thread cannot be cancelled; dropping it puts back the state the
/// thread had (enabled or not), so a cancel that came meanwhile acts later, in the caller.
pub(crate) struct NoCancel {
    previous: c_int,
}

impl NoCancel {
    pub(crate) fn hold() -> NoCancel {
        let mut previous = PTHREAD_CANCEL_DISABLE;
        // SAFETY: pthread_setcancelstate changes only the calling thread's cancel state and
        // writes the old one to `previous`, a valid int; it cannot fail for a valid state.
        unsafe { pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &mut previous) };
        NoCancel { previous }
    }
}

impl Drop for NoCancel {
    fn drop(&mut self) {
        let mut ignored = 0;
        // SAFETY: as in `hold`; `previous` is the state pthread_setcancelstate reported, so a
        // valid one. Enabling it again is not itself a cancellation point (for deferred
        // cancellation, the only kind a library may be called under).
        unsafe { pthread_setcancelstate(self.previous, &mut ignored) };
    }
}
