//! Where a host MPI library's error functions are found (`unsafe` inside: the dynamic loader's
//! calls).
//!
//! `MPI_Error_string` and `MPI_Error_class` pass the codes this library does not own to the
//! host's definition of the same function (`capi::errors`, docs/embedding.md). The first place
//! to look is the next definition in this library's lookup scope, `dlsym(RTLD_NEXT, ...)`: the
//! host's when a program links both, the host after this library. A host opened with
//! `dlopen(..., RTLD_LOCAL)` (what Python, Julia and R do with an extension and the MPI library
//! under it, and what plugins and test harnesses do) is in no scope of this library's, so
//! RTLD_NEXT cannot see it. Then the other loaded objects are searched, in load order.
//!
//! Nothing is cached: objects come and go with `dlopen` and `dlclose`, so a definition found
//! once could be unmapped by the next call. The search runs only for codes this library does not
//! own, which programs ask about when something has already gone wrong.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::ptr::NonNull;

/// A name an object defines when it is a copy of this library: either build of it, under any
/// file name, or a library linked with one of the archives. Its error functions are this
/// library's (or a host's that already knows this library's codes), never the host's answer
/// this search is for.
const MARKER: &CStr = c"MPIX_Info_error_string";

/// glibc's `RTLD_DL_LINKMAP` (<dlfcn.h>), which the libc crate does not export: asks `dladdr1`
/// for the link map of the object holding an address.
const RTLD_DL_LINKMAP: c_int = 2;

/// An address found for a name, and the object that holds it, kept open until the address has
/// been called, so that a `dlclose` on another thread cannot unmap it in the meantime.
pub(crate) struct Definition {
    pub(crate) address: NonNull<c_void>,
    _object: Option<Object>,
}

/// The host's definition of a function: `profiling` (`PMPI_...`), else `plain` (`MPI_...`).
///
/// First the next definition after this library in its lookup scope (`RTLD_NEXT`), as the
/// dynamic linker would bind it. Without one, the objects loaded in the process, in load order
/// (the order `dl_iterate_phdr` gives), leaving out the main program (a host linked into it is
/// a static link, whose error functions replace this library's; and a program built without
/// PIE that takes a function's address exports a stub of that name, which leads to whatever
/// definition the program itself binds, perhaps this library's) and every copy of this library
/// ([`MARKER`]): the first that defines `profiling` itself, else the first that defines `plain`
/// itself. The profiling name first passes over a profiling tool's `MPI_` wrapper, which would
/// call a `PMPI_` name bound in its own scope, perhaps this library's.
///
/// `None` when no object defines either name, or when memory runs out while listing the
/// objects.
pub(crate) fn host_definition(profiling: &CStr, plain: &CStr) -> Option<Definition> {
    if let Some(address) = next_definition(profiling).or_else(|| next_definition(plain)) {
        return Some(Definition { address, _object: None });
    }
    let files = loaded_files()?;
    let mut fallback = None;
    for file in files.iter() {
        let Some(object) = Object::open(file) else { continue };
        if let Some(address) = object.host_defines(profiling) {
            return Some(Definition { address, _object: Some(object) });
        }
        if fallback.is_none() {
            if let Some(address) = object.host_defines(plain) {
                fallback = Some(Definition { address, _object: Some(object) });
            }
        }
    }
    fallback
}

/// The definition of `name` after this library in its lookup scope (`RTLD_NEXT`).
fn next_definition(name: &CStr) -> Option<NonNull<c_void>> {
    // SAFETY: `name` is NUL-terminated; dlsym only looks the name up.
    NonNull::new(unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) })
}

/// The file names of the loaded objects, in load order, each with its NUL: a copy, since an
/// object can be closed, and its name freed, once `dl_iterate_phdr` returns. `dlopen` and
/// `dlsym` cannot be called from inside the iteration: it holds a loader lock that `dlopen`,
/// on another thread, takes after the one they take, so the two could wait for each other.
struct Files(Vec<u8>);

impl Files {
    fn iter(&self) -> impl Iterator<Item = &CStr> {
        let mut rest = self.0.as_slice();
        std::iter::from_fn(move || {
            let file = CStr::from_bytes_until_nul(rest).ok()?;
            rest = rest.get(file.to_bytes_with_nul().len()..).unwrap_or_default();
            Some(file)
        })
    }
}

/// The loaded objects' names; `None` if memory runs out.
fn loaded_files() -> Option<Files> {
    let mut listing = Listing { files: Vec::new(), complete: true };
    // SAFETY: `add_file` only reads the entry it is given and appends to `listing`, which
    // outlives the call; nothing else holds a reference to `listing` meanwhile.
    unsafe { libc::dl_iterate_phdr(Some(add_file), (&mut listing as *mut Listing).cast()) };
    listing.complete.then_some(Files(listing.files))
}

struct Listing {
    files: Vec<u8>,
    complete: bool,
}

/// `dl_iterate_phdr`'s callback: appends the object's name to the [`Listing`] at `data`. The
/// main program's name is empty (and so, with some versions of glibc, is the vDSO's), and is
/// left out. Allocates with `try_reserve`, so that running out of memory stops the iteration
/// (a non-zero return) instead of aborting the process.
unsafe extern "C" fn add_file(info: *mut libc::dl_phdr_info, _size: usize, data: *mut c_void) -> c_int {
    // SAFETY: `data` is the `Listing` that `loaded_files` passed, alive and not otherwise
    // referenced for the iteration's length; `info` is the entry dl_iterate_phdr describes,
    // valid during this callback, and its name is NULL or a NUL-terminated string.
    let (listing, name) = unsafe {
        let listing = &mut *data.cast::<Listing>();
        let name: *const c_char = (*info).dlpi_name;
        (listing, if name.is_null() { c"" } else { CStr::from_ptr(name) })
    };
    let name = name.to_bytes_with_nul();
    if name.len() == 1 {
        return 0;
    }
    if listing.files.try_reserve(name.len()).is_err() {
        listing.complete = false;
        return 1;
    }
    listing.files.extend_from_slice(name);
    0
}

/// A handle on an object that was already loaded, closed when dropped.
struct Object(NonNull<c_void>);

impl Object {
    /// The object loaded under `file`; `None` if none is (any more).
    fn open(file: &CStr) -> Option<Object> {
        // SAFETY: `file` is NUL-terminated. RTLD_NOLOAD opens an object only if it is already
        // loaded, so no file is read and none of its code (constructors) runs; it only counts
        // one more reference, which `drop` gives back.
        NonNull::new(unsafe { libc::dlopen(file.as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD) }).map(Object)
    }

    /// The address of `name` if this object itself defines it and is not a copy of this
    /// library. The copy test comes second: few objects define `name`, and every lookup of a
    /// name an object lacks costs as much as a lookup that finds it.
    fn host_defines(&self, name: &CStr) -> Option<NonNull<c_void>> {
        let address = self.defines(name)?;
        self.defines(MARKER).is_none().then_some(address)
    }

    /// The address of `name` if this object itself defines it. `dlsym` on a handle also
    /// searches the object's dependencies, which may be this library: a definition in another
    /// object does not count.
    fn defines(&self, name: &CStr) -> Option<NonNull<c_void>> {
        // SAFETY: the handle is open (closed only by `drop`) and `name` is NUL-terminated.
        let address = NonNull::new(unsafe { libc::dlsym(self.0.as_ptr(), name.as_ptr()) })?;
        (holder(address)? == self.link_map()?).then_some(address)
    }

    /// This object's link map (glibc's identity of a loaded object).
    fn link_map(&self) -> Option<NonNull<c_void>> {
        let mut map: *mut c_void = std::ptr::null_mut();
        // SAFETY: the handle is open; RTLD_DI_LINKMAP writes one pointer to `map`.
        let status =
            unsafe { libc::dlinfo(self.0.as_ptr(), libc::RTLD_DI_LINKMAP, (&mut map as *mut *mut c_void).cast()) };
        if status == 0 {
            NonNull::new(map)
        } else {
            None
        }
    }
}

impl Drop for Object {
    fn drop(&mut self) {
        // SAFETY: the handle came from dlopen and is closed once, here. The object was loaded
        // before `open`, by someone else, so this does not unload it unless that owner closed it
        // meanwhile, and then nothing here uses its addresses any more.
        unsafe { libc::dlclose(self.0.as_ptr()) };
    }
}

/// The link map of the object whose mapping holds `address`.
fn holder(address: NonNull<c_void>) -> Option<NonNull<c_void>> {
    // SAFETY: Dl_info is four pointers, for which all zeroes (NULL) is a valid value.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    let mut map: *mut c_void = std::ptr::null_mut();
    // SAFETY: dladdr1 only reads the loader's tables for `address` and writes `info` and, with
    // RTLD_DL_LINKMAP, one pointer to `map`.
    let found = unsafe { libc::dladdr1(address.as_ptr(), &mut info, &mut map, RTLD_DL_LINKMAP) };
    if found != 0 {
        NonNull::new(map)
    } else {
        None
    }
}
