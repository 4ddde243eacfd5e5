//! The panic boundary: how a panic inside a call becomes `MPI_ERR_INTERN` without a word
//! printed, while every other panic of the process is reported as before.
//!
//! A library called from C must not print (docs/reference.md, "Rules every function follows",
//! Silence), not even for its own bug, which the caller sees as `MPI_ERR_INTERN`. Rust prints a
//! panic in its panic hook, which runs on the panicking thread before the unwind starts, and there
//! is one hook per process. So the library installs a hook of its own ([`install_hook`]) that is
//! silent for a panic raised while the thread is inside the library ([`quietly`]: the body of every
//! exported function, and the `fork` handlers) and passes every other panic to the hook that was
//! there before.
//!
//! "Inside" is a thread-local flag, set on entry and put back as it was on the way out (also
//! when the body panics, and for a call nested in another, such as a host that passes an error
//! code back to `MPI_Error_string`). It is a `Cell<bool>` initialised by a constant: no
//! allocation, and no destructor, so the library registers no thread-local destructor
//! (docs/design.md, Unloading).

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe, PanicHookInfo};
use std::sync::{Once, OnceLock};

thread_local! {
    /// Whether this thread is running a body under [`quietly`].
    static INSIDE: Cell<bool> = const { Cell::new(false) };
}

/// Runs `body` with the thread marked inside the library: a panic in it is caught (`None`)
/// and, once [`install_hook`] has run, not printed.
#[inline(always)]
pub(crate) fn quietly<R>(body: impl FnOnce() -> R) -> Option<R> {
    let _inside = Inside::enter();
    catch_unwind(AssertUnwindSafe(body)).ok()
}

/// While it lives, the thread is inside; dropping it puts back what was there before.
struct Inside {
    was: bool,
}

impl Inside {
    #[inline(always)]
    fn enter() -> Inside {
        Inside { was: INSIDE.replace(true) }
    }
}

impl Drop for Inside {
    #[inline(always)]
    fn drop(&mut self) {
        INSIDE.set(self.was);
    }
}

/// Installs the hook, once per process (once per copy of the library loaded: each copy's hook
/// passes what is not its own to the one installed before it).
///
/// The hook captures nothing, so boxing it allocates nothing: installing it cannot run out of
/// memory (the previous hook's box already exists and is only moved into `PREVIOUS_HOOK`).
pub(crate) fn install_hook() {
    static INSTALL: Once = Once::new();
    // `set_hook` panics on a thread that is unwinding (a call from a destructor during a Rust
    // panic); such a call installs nothing, and a later one will.
    if INSTALL.is_completed() || std::thread::panicking() {
        return;
    }
    INSTALL.call_once(|| {
        let _ = PREVIOUS_HOOK.set(std::panic::take_hook());
        std::panic::set_hook(Box::new(|info| {
            if !INSIDE.get() {
                if let Some(previous) = PREVIOUS_HOOK.get() {
                    previous(info);
                }
            }
        }));
    });
}

type PanicHook = Box<dyn Fn(&PanicHookInfo<'_>) + Sync + Send + 'static>;
static PREVIOUS_HOOK: OnceLock<PanicHook> = OnceLock::new();
