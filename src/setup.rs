//! What the first call of the process does, once: installs the panic hook that keeps the
//! library's own panics quiet (`crate::panics`) and registers the `fork` handlers
//! (`crate::fork`, which a constructor registers at load already, when the library has one).
//!
//! Each has its own `Once`, which the `fork` prepare handler waits for, so that no child is
//! copied with either half done; neither module imports this one.

/// The set-up every exported function runs first; after the first call, two loads.
#[inline(always)]
pub(crate) fn set_up() {
    crate::panics::install_hook();
    crate::fork::register();
}
