//! `MPI_INFO_ENV` and `MPI_Info_create_env` (docs/reference.md, "MPI_INFO_ENV and
//! MPI_Info_create_env"): what the process was started with.

use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use crate::error::Error;
use crate::info::{InfoMap, MAX_VALUE_LEN};
use crate::shared::SharedMap;

/// Builds the environment pairs from a command line (`args[0]` is the command) in the order
/// docs/reference.md gives ("MPI_INFO_ENV and MPI_Info_create_env"). A pair whose value is unknown
/// or longer than the value limit is left out, never cut.
pub fn build(args: &[&[u8]]) -> Result<InfoMap, Error> {
    let mut joined = [0u8; MAX_VALUE_LEN];
    let argv = match args.get(1..) {
        Some(rest) if !rest.is_empty() => join(rest, &mut joined),
        _ => None,
    };
    build_from(args.first().copied(), argv)
}

/// `args` joined by single spaces into `buf`, or `None` if that is longer than a value may be.
fn join<'a>(args: &[&[u8]], buf: &'a mut [u8; MAX_VALUE_LEN]) -> Option<&'a [u8]> {
    let mut len = 0;
    for (n, arg) in args.iter().enumerate() {
        let start = len + usize::from(n > 0);
        let end = start.checked_add(arg.len()).filter(|&end| end <= buf.len())?;
        if n > 0 {
            buf[len] = b' ';
        }
        buf[start..end].copy_from_slice(arg);
        len = end;
    }
    Some(&buf[..len])
}

/// The pairs for a known `command` and `argv` value (arguments after the command, joined by
/// spaces). Allocates only through the map, so running out of memory is [`Error::NoMem`].
fn build_from(command: Option<&[u8]>, argv: Option<&[u8]>) -> Result<InfoMap, Error> {
    let mut map = InfoMap::new();
    let mut add = |key: &[u8], value: &[u8]| -> Result<(), Error> {
        match map.set(key, value) {
            Err(Error::InfoValue) => Ok(()),
            other => other,
        }
    };
    if let Some(command) = command {
        add(b"command", command)?;
    }
    if let Some(argv) = argv {
        add(b"argv", argv)?;
    }
    add(b"maxprocs", b"1")?;
    add(b"soft", b"1")?;
    let names = uname();
    if let Some(names) = &names {
        if let Some(host) = c_field(&names.nodename) {
            add(b"host", host)?;
        }
        if let Some(arch) = c_field(&names.machine) {
            add(b"arch", arch)?;
        }
    }
    let mut dir = [0u8; MAX_VALUE_LEN + 1];
    if let Some(dir) = working_directory(&mut dir) {
        add(b"wdir", dir)?;
    }
    add(b"thread_level", b"MPI_THREAD_MULTIPLE")?;
    Ok(map)
}

/// The host name (what `gethostname` returns on Linux) and the machine (`uname -m`).
fn uname() -> Option<libc::utsname> {
    // SAFETY: utsname is plain old data (arrays of c_char); all-zero bytes are a valid value.
    let mut names: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: `names` is a valid, writable utsname; uname writes only inside it.
    (unsafe { libc::uname(&mut names) } == 0).then_some(names)
}

/// The text of a NUL-terminated field of a C struct (all of it if there is no NUL); `None`
/// (unknown) if it is empty.
fn c_field(chars: &[libc::c_char]) -> Option<&[u8]> {
    // SAFETY: c_char and u8 have the same size and alignment, and every bit pattern is a
    // valid u8; the slice covers exactly the memory of `chars`.
    let bytes = unsafe { std::slice::from_raw_parts(chars.as_ptr().cast::<u8>(), chars.len()) };
    let len = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    (len > 0).then_some(&bytes[..len])
}

/// The working directory, read into `buf` without allocating; `None` if it is unknown or
/// longer than a value may be.
fn working_directory(buf: &mut [u8; MAX_VALUE_LEN + 1]) -> Option<&[u8]> {
    // SAFETY: getcwd writes at most `buf.len()` bytes, NUL included, into `buf`, and returns
    // null (ERANGE) if the path does not fit.
    let got = unsafe { libc::getcwd(buf.as_mut_ptr().cast(), buf.len()) };
    if got.is_null() {
        return None;
    }
    let len = buf.iter().position(|&b| b == 0)?;
    Some(&buf[..len])
}

/// What `MPI_INFO_ENV` needs of `/proc/self/cmdline`, kept in fixed buffers so that capturing
/// it allocates nothing: the command (`argv[0]`) and the rest (the other arguments, each ending
/// in a NUL), each up to a value's length plus its NUL. The counts go on past the buffers, so a
/// part that did not fit is known to be too long, and left out. The two parts are kept apart
/// because a too-long command must not push a short `argv` out of the buffer.
struct CmdLine {
    command: [u8; MAX_VALUE_LEN + 1],
    command_len: usize,
    /// The NUL that ends the command has been read.
    past_command: bool,
    rest: [u8; MAX_VALUE_LEN + 1],
    rest_len: usize,
}

impl CmdLine {
    const EMPTY: CmdLine = CmdLine {
        command: [0; MAX_VALUE_LEN + 1],
        command_len: 0,
        past_command: false,
        rest: [0; MAX_VALUE_LEN + 1],
        rest_len: 0,
    };

    /// This process's command line; empty if it cannot be read (then `command` and `argv`
    /// are unknown, and left out).
    fn read() -> CmdLine {
        use std::io::Read;
        // The open, the reads and the close are cancellation points (`crate::nocancel`): a
        // constructor run by a `dlopen` in a thread being cancelled must not be unwound.
        let _no_cancel = crate::nocancel::NoCancel::hold();
        let mut line = CmdLine::EMPTY;
        let Ok(mut file) = std::fs::File::open("/proc/self/cmdline") else {
            return line;
        };
        let mut chunk = [0u8; 512];
        loop {
            match file.read(&mut chunk) {
                Ok(0) => return line,
                Ok(n) => line.take(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return CmdLine::EMPTY,
            }
        }
    }

    /// Adds the next bytes of the command line.
    fn take(&mut self, mut bytes: &[u8]) {
        if !self.past_command {
            let end = bytes.iter().position(|&b| b == 0);
            keep(&mut self.command, &mut self.command_len, &bytes[..end.unwrap_or(bytes.len())]);
            let Some(end) = end else { return };
            self.past_command = true;
            bytes = &bytes[end + 1..];
        }
        keep(&mut self.rest, &mut self.rest_len, bytes);
    }

    /// (command, argv): the arguments after the command are NUL-terminated, so the rest
    /// without its last NUL, with NULs turned into spaces, is the `argv` value.
    fn command_and_argv<'a>(&self, joined: &'a mut [u8; MAX_VALUE_LEN]) -> (Option<&[u8]>, Option<&'a [u8]>) {
        // A line that is one NUL (argv[0] empty, nothing after it) names no command.
        if self.command_len == 0 && self.rest_len == 0 {
            return (None, None);
        }
        let command = (self.command_len <= MAX_VALUE_LEN).then(|| &self.command[..self.command_len]);
        if self.rest_len == 0 || self.rest_len > self.rest.len() {
            return (command, None);
        }
        let rest = &self.rest[..self.rest_len];
        let rest = rest.strip_suffix(&[0]).unwrap_or(rest);
        let argv = (rest.len() <= joined.len()).then(|| {
            let out = &mut joined[..rest.len()];
            for (to, &from) in out.iter_mut().zip(rest) {
                *to = if from == 0 { b' ' } else { from };
            }
            &*out
        });
        (command, argv)
    }
}

/// Appends `part` to the text in `buf` (length `len`, which counts on past the buffer's end:
/// what does not fit is dropped but counted).
fn keep(buf: &mut [u8], len: &mut usize, part: &[u8]) {
    if let Some(room) = buf.get_mut(*len..) {
        let n = room.len().min(part.len());
        room[..n].copy_from_slice(&part[..n]);
    }
    *len = len.saturating_add(part.len());
}

static OWN_ARGS: OnceLock<CmdLine> = OnceLock::new();

/// What is done when the library is loaded (before `main` runs, for a program linked with it).
///
/// `/proc/self/cmdline` shows the argument strings as they are in memory now, and programs do
/// change them (strtok, setproctitle). So the command line is copied at load, and
/// `MPI_INFO_ENV` shows it as the process was started.
///
/// `MPI_INFO_ENV`'s pairs are built then too, from that command line and the working
/// directory at load: the calls that only read must not fail for lack of memory (they
/// allocate nothing), and a read of `MPI_INFO_ENV` is one. Built on first use (as they are
/// only when building them here failed), the first read could return `MPI_ERR_NO_MEM`.
/// Not without the C API (the `c-api` feature): nothing can read `MPI_INFO_ENV` there.
#[cfg(feature = "c-api")]
#[used]
#[link_section = ".init_array"]
static CAPTURE_ARGS_AT_LOAD: extern "C" fn() = capture_args_at_load;

extern "C" fn capture_args_at_load() {
    // A panic must not unwind out of a constructor; if one happened, what is missing is made
    // on first use instead. So is `MPI_INFO_ENV` when memory ran out here.
    let _ = std::panic::catch_unwind(|| {
        OWN_ARGS.get_or_init(CmdLine::read);
        // Not in the model-checked build: its counted pointers are loom's, usable only inside
        // a model, and it has no C API to read `MPI_INFO_ENV` through.
        #[cfg(not(loom))]
        let _ = shared_env();
    });
}

static ENV: OnceLock<SharedMap> = OnceLock::new();

/// Held while `MPI_INFO_ENV` is published and while the command line is read late (when the
/// capture at load failed), so that `fork`'s prepare handler, which takes it too
/// (`crate::fork`), never copies either half done: a `OnceLock` being set by a thread that
/// does not exist in the child would stay "being set" there for ever.
static FIRST_BUILD: Mutex<()> = Mutex::new(());

/// Takes the lock held while `MPI_INFO_ENV` is first published.
pub(crate) fn lock_first_build() -> MutexGuard<'static, ()> {
    FIRST_BUILD.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The process's command line as captured at load, or read now if that failed.
fn own_args() -> &'static CmdLine {
    if let Some(args) = OWN_ARGS.get() {
        return args;
    }
    let _reading = lock_first_build();
    OWN_ARGS.get_or_init(CmdLine::read)
}

/// The pairs `MPI_INFO_ENV` holds, built now from the process's own command line as it was
/// captured at load (so `wdir` is the directory now). The Fortran `MPI_INFO_CREATE_ENV`, which
/// takes no arguments, returns a new object with these.
pub fn build_own() -> Result<InfoMap, Error> {
    let mut joined = [0u8; MAX_VALUE_LEN];
    let (command, argv) = own_args().command_and_argv(&mut joined);
    build_from(command, argv)
}

/// The pairs of `MPI_INFO_ENV`, built when the library was loaded (so `wdir` is the directory
/// then), or now if that failed.
pub fn shared_env() -> Result<SharedMap, Error> {
    if let Some(env) = ENV.get() {
        return Ok(env.clone());
    }
    let built = SharedMap::try_new(build_own()?)?;
    let _publishing = lock_first_build();
    Ok(ENV.get_or_init(|| built).clone())
}

/// `MPI_INFO_ENV`'s pairs, borrowed.
pub fn info_env() -> Result<&'static InfoMap, Error> {
    if let Some(env) = ENV.get() {
        return Ok(env);
    }
    shared_env()?;
    ENV.get().map(|env| &**env).ok_or(Error::Intern)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_in_spec_order() {
        let m = build(&[b"prog", b"-n", b"4"]).unwrap();
        let keys: Vec<&[u8]> = m.iter().map(|(k, _)| k).collect();
        assert_eq!(&keys[..4], &[&b"command"[..], b"argv", b"maxprocs", b"soft"]);
        assert_eq!(keys.last(), Some(&&b"thread_level"[..]));
        assert_eq!(m.get(b"argv"), Some(&b"-n 4"[..]));
        assert_eq!(m.get(b"command"), Some(&b"prog"[..]));
    }

    #[test]
    fn no_args_means_no_command_and_long_values_are_left_out() {
        let m = build(&[]).unwrap();
        assert!(m.get(b"command").is_none() && m.get(b"argv").is_none());
        let long = vec![b'a'; 600];
        let m = build(&[b"p", &long, &long]).unwrap();
        assert!(m.get(b"argv").is_none());
        assert_eq!(m.get(b"command"), Some(&b"p"[..]));
    }

    fn split(line: &[u8], chunk: usize) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
        let mut captured = CmdLine::EMPTY;
        for part in line.chunks(chunk) {
            captured.take(part);
        }
        let mut joined = [0u8; MAX_VALUE_LEN];
        let (command, argv) = captured.command_and_argv(&mut joined);
        (command.map(<[u8]>::to_vec), argv.map(<[u8]>::to_vec))
    }

    #[test]
    fn command_line_is_split_as_the_kernel_writes_it() {
        for chunk in [1, 3, 512] {
            assert_eq!(split(b"", chunk), (None, None));
            assert_eq!(split(b"\0", chunk), (None, None));
            assert_eq!(split(b"prog\0", chunk), (Some(b"prog".to_vec()), None));
            assert_eq!(split(b"prog\0\0", chunk), (Some(b"prog".to_vec()), Some(b"".to_vec())));
            assert_eq!(split(b"prog\0-n\0\x004\0", chunk), (Some(b"prog".to_vec()), Some(b"-n  4".to_vec())));
            assert_eq!(split(b"\0a\0", chunk), (Some(b"".to_vec()), Some(b"a".to_vec())));
        }
    }

    #[test]
    fn a_long_part_is_left_out_without_losing_the_other() {
        let long = vec![b'x'; 5000];
        let limit = vec![b'y'; MAX_VALUE_LEN];
        // A command too long for a value, then an argument of exactly the limit.
        let line = [&long[..], b"\0", &limit[..], b"\0"].concat();
        assert_eq!(split(&line, 512), (None, Some(limit.clone())));
        // A command of exactly the limit, then arguments too long together.
        let line = [&limit[..], b"\0", &limit[..], b"\0z\0"].concat();
        assert_eq!(split(&line, 512), (Some(limit.clone()), None));
    }
}
