//! What the library does around `fork(2)`: a child process may go on using every object the
//! parent had, and new ones, even when other threads of the parent were inside calls.
//!
//! The child has one thread, the one that called `fork`, and a copy of the parent's memory.
//! A lock another thread held at that moment would stay held in the child for ever, and an
//! object that thread was changing would be copied half changed. So the handler that runs just
//! before the fork ([`prepare`]) takes every lock the library has, in the one order that no
//! call contradicts (no call waits for a lock while it holds another): the lock that guards the
//! first build of `MPI_INFO_ENV`, the handle table's allocator, then each object's lock. Once
//! it holds them all, no other thread is inside a call, and any that tries to enter waits. The
//! handlers that run just after the fork, in the parent and in the child ([`release`]), let
//! them go. A thread that was waiting for one of them in the parent does not exist in the
//! child; the standard library's locks keep all their state in the lock word, so releasing
//! them there is enough.
//!
//! Cost: each fork of the process takes and releases one lock per object slot ever used (the
//! table hands slots out 4096 at a time), whether or not the child uses the library.

use std::sync::Once;

use crate::handles::{self, AllLocks};
use crate::panics::quietly;
use crate::sync::Mutex;

/// Registers the handlers when the library is loaded, before any thread can call into it, so
/// that no fork copies a first call's set-up half done. (The first call registers them too,
/// for a static link that leaves this constructor out: `crate::setup`.)
#[used]
#[link_section = ".init_array"]
static REGISTER_AT_LOAD: extern "C" fn() = register_at_load;

extern "C" fn register_at_load() {
    // A panic must not unwind out of a constructor.
    let _ = quietly(register);
}

/// Registers the handlers, once per process (once per copy of the library loaded).
#[inline(always)]
pub(crate) fn register() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        // SAFETY: the three handlers are `extern "C" fn()` that live as long as the library
        // (it is linked with `-z nodelete`, so it is never unmapped while the process runs).
        // pthread_atfork fails only with ENOMEM; then forks are as unsafe as without it, which
        // is no reason to fail the call that registered it.
        let _ = unsafe { libc::pthread_atfork(Some(prepare), Some(release), Some(release)) };
    });
}

/// What [`prepare`] holds until [`release`].
struct Held {
    _env: std::sync::MutexGuard<'static, ()>,
    _table: AllLocks,
}

/// Guards move between the handlers in here. All three run on the thread that calls `fork`,
/// and a second fork from another thread waits in [`prepare`] for the first one's locks.
struct Holder(Option<Held>);
// SAFETY: a `Held` is made by `prepare` and dropped by `release` of the same fork, which POSIX
// runs on the same thread (in the child, on the copy of that thread); it never reaches another
// thread, so the guards inside are released where they were taken.
unsafe impl Send for Holder {}
static HELD: Mutex<Holder> = Mutex::new(Holder(None));

extern "C" fn prepare() {
    // Unwinding out of a fork handler would be undefined; a panic here (a bug) holds nothing,
    // and is not printed (it is inside the library: `crate::panics`).
    let _ = quietly(|| {
        // Finishes a first call's set-up that another thread may be inside (`crate::setup`:
        // its Onces would otherwise stay "running" in the child).
        // (`crate::setup::set_up`'s two steps, named here: setup imports this module.)
        crate::panics::install_hook();
        register();
        let env = crate::env::lock_first_build();
        let table = handles::lock_all();
        HELD.lock().0 = Some(Held { _env: env, _table: table });
    });
}

extern "C" fn release() {
    let _ = quietly(|| drop(HELD.lock().0.take()));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Between `prepare` and `release` every object lock is held: a thread that tries to
    /// change an object waits until the handlers let go, and then its change is made.
    #[test]
    fn prepare_holds_every_lock_until_release() {
        let h = handles::create(None).unwrap();
        prepare();
        assert!(HELD.lock().0.is_some(), "prepare holds nothing");
        let (sent, got) = std::sync::mpsc::channel();
        let user = std::thread::spawn(move || {
            let result = handles::write(h, |mut object| object.modify(|map| map.set(b"k", b"v")));
            sent.send(result).unwrap();
        });
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert!(got.try_recv().is_err(), "a call went in while prepare held the locks");
        release();
        assert_eq!(got.recv().unwrap(), Ok(()));
        user.join().unwrap();
        assert_eq!(handles::read(h, |map| Ok(map.get(b"k").map(<[u8]>::to_vec))), Ok(Some(b"v".to_vec())));
        handles::free(h).unwrap();
    }
}
