//! `MPI_INFO_ENV` and `MPI_Info_create_env` (SPEC §7): what the process was started with.

use std::os::unix::ffi::OsStrExt;
use std::sync::{Arc, OnceLock};

use crate::error::Error;
use crate::info::{InfoMap, MAX_VALUE_LEN};

/// Builds the environment pairs from a command line (`args[0]` is the command) in the order
/// SPEC §7 gives. A pair whose value is unknown or longer than the value limit is left out,
/// never cut.
pub fn build(args: &[&[u8]]) -> Result<InfoMap, Error> {
    let mut map = InfoMap::new();
    let mut add = |key: &[u8], value: &[u8]| -> Result<(), Error> {
        match map.set(key, value) {
            Err(Error::InfoValue) => Ok(()),
            other => other,
        }
    };
    if let Some(command) = args.first() {
        add(b"command", command)?;
    }
    if args.len() > 1 {
        let joined_len = args[1..].iter().map(|a| a.len() + 1).sum::<usize>() - 1;
        if joined_len <= MAX_VALUE_LEN {
            add(b"argv", &args[1..].join(&b' '))?;
        }
    }
    add(b"maxprocs", b"1")?;
    add(b"soft", b"1")?;
    let names = uname();
    if let Some(host) = &names.host {
        add(b"host", host)?;
    }
    if let Some(arch) = &names.arch {
        add(b"arch", arch)?;
    }
    if let Ok(dir) = std::env::current_dir() {
        add(b"wdir", dir.as_os_str().as_bytes())?;
    }
    add(b"thread_level", b"MPI_THREAD_MULTIPLE")?;
    drop(add);
    Ok(map)
}

struct MachineNames {
    host: Option<Vec<u8>>,
    arch: Option<Vec<u8>>,
}

/// The host name (what `gethostname` returns on Linux) and the machine (`uname -m`).
fn uname() -> MachineNames {
    let mut names: libc::utsname = zeroed_utsname();
    // SAFETY: `names` is a valid, writable utsname; uname writes only inside it.
    if unsafe { libc::uname(&mut names) } != 0 {
        return MachineNames { host: None, arch: None };
    }
    let field = |chars: &[libc::c_char]| -> Option<Vec<u8>> {
        let bytes: Vec<u8> = chars.iter().map(|&c| c as u8).take_while(|&b| b != 0).collect();
        (!bytes.is_empty()).then_some(bytes)
    };
    MachineNames { host: field(&names.nodename), arch: field(&names.machine) }
}

fn zeroed_utsname() -> libc::utsname {
    // SAFETY: utsname is plain old data (arrays of c_char); all-zero bytes are a valid value.
    unsafe { std::mem::zeroed() }
}

/// This process's command line, from the operating system.
fn read_own_args() -> Vec<Vec<u8>> {
    match std::fs::read("/proc/self/cmdline") {
        Ok(bytes) => {
            let bytes = bytes.strip_suffix(&[0]).unwrap_or(&bytes);
            if bytes.is_empty() {
                Vec::new()
            } else {
                bytes.split(|&b| b == 0).map(<[u8]>::to_vec).collect()
            }
        }
        Err(_) => std::env::args_os().map(|a| a.as_bytes().to_vec()).collect(),
    }
}

static OWN_ARGS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();

/// `/proc/self/cmdline` shows the argument strings as they are in memory now, and programs do
/// change them (strtok, setproctitle). So the command line is copied when the library is
/// loaded, before `main` runs, and `MPI_INFO_ENV` shows it as the process was started.
#[used]
#[link_section = ".init_array"]
static CAPTURE_ARGS_AT_LOAD: extern "C" fn() = capture_args_at_load;

extern "C" fn capture_args_at_load() {
    // A panic must not unwind out of a constructor; if one happened, the arguments are read
    // on first use instead.
    let _ = std::panic::catch_unwind(|| OWN_ARGS.get_or_init(read_own_args));
}

fn own_args() -> &'static [Vec<u8>] {
    OWN_ARGS.get_or_init(read_own_args)
}

static ENV: OnceLock<Arc<InfoMap>> = OnceLock::new();

/// The pairs of `MPI_INFO_ENV`, built on first use (so `wdir` is the directory then).
pub fn shared_env() -> Result<Arc<InfoMap>, Error> {
    if let Some(env) = ENV.get() {
        return Ok(Arc::clone(env));
    }
    let args = own_args();
    let borrowed: Vec<&[u8]> = args.iter().map(Vec::as_slice).collect();
    let built = Arc::new(build(&borrowed)?);
    Ok(Arc::clone(ENV.get_or_init(|| built)))
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
}
