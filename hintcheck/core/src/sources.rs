//! Where each hint of a call came from (docs/hintcheck.md, "Sources and precedence"): the
//! program's info object, a hint text of the environment (the file ROMIO_HINTS names,
//! PNETCDF_HINTS, MPICH_MPIIO_HINTS) or a layer that added it; and, where two sources set one
//! key, which won by the rule of the layer that merged them, with the source lines of that rule.
//!
//! The texts are read once, at `MPI_Init` ([`read_environment`]), and split as their readers
//! split them (`mpi_info::hints::syntax`); the rules are the upstream code's, read at the
//! releases installed here:
//!
//! - ROMIO (MPICH's MPI-IO, and Open MPI's ROMIO component) reads the file ROMIO_HINTS names at
//!   the first `MPI_File_open` and adds each entry whose key the info it is given does not set:
//!   the info wins (`ADIOI_incorporate_system_hints`); within the file, the first entry of a key.
//! - Open MPI's OMPIO, its default file layer, does not read ROMIO_HINTS at all.
//! - PnetCDF sets each PNETCDF_HINTS entry over the program's info with `MPI_Info_set`
//!   (`combine_env_hints`, in `ncmpi_create` and `ncmpi_open`): PNETCDF_HINTS wins, and within
//!   it the last entry of a key.
//! - Cray MPICH reads MPICH_MPIIO_HINTS (the first group whose pattern matches the file); its
//!   source is not public, so which of it and the program wins cannot be told from outside.

use std::ffi::{CString, OsString};
use std::io::Read as _;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use mpi_info::hints::syntax::{items, Item, Syntax};
use mpi_info::hints::Escaped;

use crate::report::{LayerKind, Origin, Overridden, Source, Text, Variable};

/// The most of a ROMIO_HINTS file read: ROMIO reads its first 4096 bytes; more is read so that
/// the check can say what ROMIO leaves out.
const READ_MAX: u64 = 1 << 20;
/// What ROMIO reads of the file (`HINTFILE_MAX_SIZE` in system_hints.c).
pub const ROMIO_READS: usize = 4096;

/// The file ROMIO reads when ROMIO_HINTS is not set, or names a file it cannot open
/// (`ROMIO_HINT_DEFAULT_CFG` in system_hints.c, `find_file`).
pub const ROMIO_DEFAULT_FILE: &str = "/etc/romio-hints";

/// A hint text of the environment.
pub struct EnvText {
    pub variable: Variable,
    /// ROMIO_HINTS: the file ROMIO reads (the one it names, or ROMIO_DEFAULT_FILE).
    pub file: Option<Vec<u8>>,
    /// The text, or why it cannot be read.
    pub text: Result<Vec<u8>, String>,
    /// How the file was chosen, when it is not the one ROMIO_HINTS names.
    pub note: Option<String>,
}

impl EnvText {
    /// The syntax its reader reads.
    pub fn syntax(&self) -> Syntax {
        match self.variable {
            Variable::Romio => Syntax::Romio,
            Variable::Pnetcdf => Syntax::Pnetcdf,
            Variable::MpichMpiio => Syntax::Cray,
        }
    }

    /// The entry its reader takes for `key` (for MPICH_MPIIO_HINTS, in the first group whose
    /// pattern matches `filename`): its value, line and column. ROMIO takes the first entry of
    /// a key within the bytes it reads; PnetCDF the last (each `MPI_Info_set` replaces the one
    /// before).
    pub fn entry(&self, key: &[u8], filename: Option<&[u8]>) -> Option<Place> {
        let text = self.text.as_ref().ok()?;
        let place = |item: &Item<'_>| match *item {
            Item::Pair { line, column, key: k, value, .. } if k == key => {
                Some(Place { value: value.to_vec(), line: line as u64, column: column as u64 })
            }
            _ => None,
        };
        match self.variable {
            Variable::Romio => items(&text[..text.len().min(ROMIO_READS)], Syntax::Romio).iter().find_map(place),
            Variable::Pnetcdf => items(text, Syntax::Pnetcdf).iter().rev().find_map(place),
            Variable::MpichMpiio => {
                let scope = cray_scope(text, filename?)?;
                items(text, Syntax::Cray)
                    .iter()
                    .filter(|item| matches!(item, Item::Pair { scope: s, .. } if *s == scope))
                    .find_map(place)
            }
        }
    }

    /// A source at `place` of this text.
    fn source(&self, place: &Place) -> Source {
        Source {
            from: Origin::of(self.variable),
            file: self.file.clone().map(Text),
            line: Some(place.line),
            column: Some(place.column),
            overridden: Vec::new(),
        }
    }

    fn overridden(&self, place: &Place, why: &str) -> Overridden {
        Overridden {
            from: Origin::of(self.variable),
            file: self.file.clone().map(Text),
            line: Some(place.line),
            column: Some(place.column),
            value: Text(place.value.clone()),
            why: why.to_string(),
        }
    }
}

/// An entry of a hint text.
#[derive(Debug, PartialEq, Eq)]
pub struct Place {
    pub value: Vec<u8>,
    pub line: u64,
    pub column: u64,
}

/// The scope number (as `syntax::items` numbers MPICH_MPIIO_HINTS's groups, from 1 across the
/// lines) of the first group whose file-name pattern matches `filename`.
fn cray_scope(text: &[u8], filename: &[u8]) -> Option<usize> {
    let name = CString::new(filename).ok()?;
    let mut scope = 0;
    for line in text.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        for group in line.split(|&b| b == b',') {
            scope += 1;
            let Some(colon) = group.iter().position(|&b| b == b':') else { continue };
            let pattern = group[..colon].trim_ascii();
            if !pattern.is_empty() && matches(pattern, &name) {
                return Some(scope);
            }
        }
    }
    None
}

/// Whether a shell pattern matches a file name, as `fnmatch(3)` with no flags.
fn matches(pattern: &[u8], name: &CString) -> bool {
    let Ok(pattern) = CString::new(pattern) else { return false };
    // SAFETY: two NUL-terminated strings that live across the call.
    unsafe { libc::fnmatch(pattern.as_ptr(), name.as_ptr(), 0) == 0 }
}

/// The hint texts of this process's environment that are set and not empty: the file ROMIO
/// reads (the one ROMIO_HINTS names, or ROMIO_DEFAULT_FILE), up to `READ_MAX` bytes,
/// PNETCDF_HINTS and MPICH_MPIIO_HINTS.
pub fn read_environment() -> Vec<EnvText> {
    read_environment_from(|name| std::env::var_os(name), Path::new(ROMIO_DEFAULT_FILE))
}

/// `read_environment` with the variables of `var` and ROMIO's default file at `default`.
pub fn read_environment_from(var: impl Fn(&str) -> Option<OsString>, default: &Path) -> Vec<EnvText> {
    let mut texts = Vec::new();
    let read = |f: std::fs::File| {
        let mut text = Vec::new();
        f.take(READ_MAX).read_to_end(&mut text).map(|_| text).map_err(|e| e.to_string())
    };
    // ROMIO opens the file ROMIO_HINTS names, and if that fails (or it is not set), its default.
    let named = var("ROMIO_HINTS").filter(|p| !p.is_empty());
    let opened = named.as_ref().map(|p| std::fs::File::open(p).map_err(|e| e.to_string()));
    match (named, opened) {
        (Some(path), Some(Ok(f))) => texts.push(EnvText {
            variable: Variable::Romio,
            file: Some(path.as_bytes().to_vec()),
            text: read(f),
            note: None,
        }),
        (named, opened) => {
            let why = match (&named, opened) {
                (Some(path), Some(Err(e))) => {
                    format!("the file ROMIO_HINTS names, {}, cannot be opened ({e})", Escaped(path.as_bytes()))
                }
                _ => "ROMIO_HINTS is not set".to_string(),
            };
            match std::fs::File::open(default) {
                Ok(f) => texts.push(EnvText {
                    variable: Variable::Romio,
                    file: Some(default.as_os_str().as_bytes().to_vec()),
                    text: read(f),
                    note: Some(format!("{why}: ROMIO reads {} instead", default.display())),
                }),
                Err(_) if named.is_some() => texts.push(EnvText {
                    variable: Variable::Romio,
                    file: named.map(|p| p.as_bytes().to_vec()),
                    text: Err(format!("{why}, nor can {}", default.display())),
                    note: None,
                }),
                Err(_) => {}
            }
        }
    }
    for variable in [Variable::Pnetcdf, Variable::MpichMpiio] {
        if let Some(value) = var(variable.as_str()).filter(|v| !v.is_empty()) {
            texts.push(EnvText { variable, file: None, text: Ok(value.as_bytes().to_vec()), note: None });
        }
    }
    texts
}

/// What this process's layers do with the environment's texts, and their precedence rules:
/// fixed at `MPI_Init` (who reads ROMIO_HINTS and MPICH_MPIIO_HINTS depends on the MPI alone).
pub struct Rules {
    pub texts: Vec<EnvText>,
    /// Whether the MPI reads ROMIO_HINTS, and the rule that says how it merges it (or why it
    /// does not read it).
    pub romio_read: bool,
    pub romio_why: String,
    /// Whether the MPI reads MPICH_MPIIO_HINTS, and what is known of its precedence.
    pub cray_read: bool,
    pub cray_why: String,
    /// PnetCDF's rule for PNETCDF_HINTS.
    pub pnetcdf_why: String,
}

impl Rules {
    /// The rules of the MPI named `name` (as `report::implementation_of` names it) at `version`,
    /// `romio_component`: Open MPI is told to use its ROMIO component (OMPI_MCA_io).
    pub fn new(texts: Vec<EnvText>, name: Option<&str>, version: Option<&str>, romio_component: bool) -> Rules {
        let at = |v: Option<&str>| v.map(|v| format!(" {v}")).unwrap_or_default();
        let romio_based = matches!(name, Some("MPICH" | "Cray MPICH" | "MVAPICH" | "Intel MPI"));
        let open_mpi = name == Some("Open MPI");
        let (romio_read, romio_why) = if romio_based {
            (true, format!("ROMIO leaves out a ROMIO_HINTS entry whose key is set in the info it is given (src/mpi/romio/adio/common/system_hints.c:188-191, ADIOI_incorporate_system_hints, read at MPICH 4.0.2; the running MPI is {}{})", name.unwrap_or("?"), at(version)))
        } else if open_mpi && romio_component {
            (true, format!("Open MPI's ROMIO component leaves out a ROMIO_HINTS entry whose key is set in the info it is given (ompi/mca/io/romio321/romio/adio/common/system_hints.c:191-193, ADIOI_incorporate_system_hints, read at Open MPI 4.1.4; the running Open MPI is{})", at(version)))
        } else if open_mpi {
            (false, format!("Open MPI{}'s OMPIO, its default file layer, does not read ROMIO_HINTS (OMPI_MCA_io=romio321 selects its ROMIO component, which does)", at(version)))
        } else {
            (false, format!("{}{} is not known to read ROMIO_HINTS", name.unwrap_or("this MPI"), at(version)))
        };
        let cray = name == Some("Cray MPICH");
        let cray_why = if cray {
            "which of MPICH_MPIIO_HINTS and the program's info wins cannot be told from outside: Cray MPICH's source is not public".to_string()
        } else {
            format!("only Cray MPICH reads MPICH_MPIIO_HINTS, not {}{}", name.unwrap_or("this MPI"), at(version))
        };
        let pnetcdf_why = "PnetCDF sets each PNETCDF_HINTS entry over the program's info with MPI_Info_set: PNETCDF_HINTS wins (src/dispatchers/file.c:146-151 and 236, combine_env_hints, called by ncmpi_create and ncmpi_open; read at PnetCDF 1.12.3)".to_string();
        Rules { texts, romio_read, romio_why, cray_read: cray, cray_why, pnetcdf_why }
    }

    pub fn text(&self, variable: Variable) -> Option<&EnvText> {
        self.texts.iter().find(|t| t.variable == variable)
    }

    /// The source of a pair the call was given. `caller`: the library whose code made the call;
    /// `program`: the pairs the program gave to the library call it was made in or with
    /// (`through`), when known; `layer_call`: the call is a library's own entry point (its
    /// pairs are the program's).
    pub fn requested(&self, key: &[u8], value: &[u8], ctx: &Ctx<'_>) -> Source {
        let program_has = |v: &[u8]| ctx.program.is_some_and(|p| p.iter().any(|&(k, pv)| k == key && pv == v));
        match ctx.caller {
            _ if ctx.layer_call => Source::new(Origin::Program),
            None => Source::new(Origin::Program),
            Some(LayerKind::Pnetcdf) => {
                let env = self.text(Variable::Pnetcdf).and_then(|t| t.entry(key, None).map(|p| (t, p)));
                match env {
                    Some((text, place)) if place.value == value => {
                        let mut source = text.source(&place);
                        if let Some(&(_, pv)) = ctx.program.and_then(|p| p.iter().rev().find(|(k, _)| *k == key)) {
                            source.overridden.push(Overridden {
                                value: Text(pv.to_vec()),
                                why: self.pnetcdf_why.clone(),
                                ..Overridden::program()
                            });
                        }
                        source
                    }
                    _ if program_has(value) => Source::new(Origin::Program),
                    _ => Source::new(Origin::Pnetcdf),
                }
            }
            Some(LayerKind::Hdf5) if program_has(value) => Source::new(Origin::Program),
            Some(LayerKind::Hdf5) => Source::new(Origin::Hdf5),
            Some(LayerKind::Mpi) => Source::new(Origin::Implementation),
        }
    }

    /// The source of a pair the layer reports after the call: `requested` is the value the call
    /// was given for the key, if it was.
    pub fn effective(&self, key: &[u8], value: &[u8], requested: Option<&[u8]>, ctx: &Ctx<'_>) -> Source {
        // The library's own view (ncmpi_inq_file_info): PNETCDF_HINTS over the program's info.
        if ctx.layer_call {
            let env = self.text(Variable::Pnetcdf).and_then(|t| t.entry(key, None).map(|p| (t, p)));
            if let Some((text, place)) = env {
                let mut source = text.source(&place);
                if let Some(rv) = requested {
                    source.overridden.push(Overridden {
                        value: Text(rv.to_vec()),
                        why: self.pnetcdf_why.clone(),
                        ..Overridden::program()
                    });
                }
                self.below(key, &mut source, ctx);
                return source;
            }
        }
        if let Some(rv) = requested {
            let mut source = self.requested(key, rv, ctx);
            self.below(key, &mut source, ctx);
            return source;
        }
        // Not given to the call: a text the MPI reads, or added by a layer.
        if let Some(source) = self.mpi_text_source(key, value, ctx) {
            return source;
        }
        if ctx.layer_call && ctx.pnetcdf_key {
            return Source::new(Origin::Pnetcdf);
        }
        Source::new(Origin::Implementation)
    }

    /// A key the MPI reports without being given it: from a text the MPI reads, if the key is
    /// there. At MPI_File_open (or in a library call that opens a file) the MPI merges the text
    /// then; at a later call on the file the key is the text's if its value is.
    fn mpi_text_source(&self, key: &[u8], value: &[u8], ctx: &Ctx<'_>) -> Option<Source> {
        for (variable, read) in [(Variable::Romio, self.romio_read), (Variable::MpichMpiio, self.cray_read)] {
            let Some(text) = self.text(variable).filter(|_| read) else { continue };
            let Some(place) = text.entry(key, ctx.filename) else { continue };
            if ctx.opens || place.value == value {
                return Some(text.source(&place));
            }
        }
        None
    }

    /// For a key set in the info the MPI was given, at a call that opens a file: the entries
    /// of the MPI's texts for it, which lose (or are not read), with why.
    fn below(&self, key: &[u8], source: &mut Source, ctx: &Ctx<'_>) {
        if !ctx.opens {
            return;
        }
        for (variable, why) in [(Variable::Romio, &self.romio_why), (Variable::MpichMpiio, &self.cray_why)] {
            if let Some(place) = self.text(variable).and_then(|t| t.entry(key, ctx.filename).map(|p| (t, p))) {
                source.overridden.push(place.0.overridden(&place.1, why));
            }
        }
    }
}

impl Overridden {
    /// The program's info, as the loser (value and why to be filled in).
    fn program() -> Overridden {
        Overridden {
            from: Origin::Program,
            file: None,
            line: None,
            column: None,
            value: Text(Vec::new()),
            why: String::new(),
        }
    }
}

/// What the sources of one call depend on.
pub struct Ctx<'a> {
    /// The library whose code made the call.
    pub caller: Option<LayerKind>,
    /// The call is a library's entry point (ncmpi_create, ncmpi_open, H5Pset_fapl_mpio): its
    /// pairs are the program's, and what it reports is the library's view.
    pub layer_call: bool,
    /// The call opens a file (MPI_File_open, or a library call that opens one): the MPI merges
    /// its texts then.
    pub opens: bool,
    /// The pairs the program gave to the library call this one was made in or with.
    pub program: Option<&'a [(&'a [u8], &'a [u8])]>,
    pub filename: Option<&'a [u8]>,
    /// For a library's view: the key is one the library reads itself (PnetCDF's defaults).
    pub pnetcdf_key: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(variable: Variable, text: &[u8]) -> EnvText {
        let file = (variable == Variable::Romio).then(|| b"/hints".to_vec());
        EnvText { variable, file, text: Ok(text.to_vec()), note: None }
    }

    fn place(value: &[u8], line: u64, column: u64) -> Place {
        Place { value: value.to_vec(), line, column }
    }

    #[test]
    fn each_reader_takes_its_entry() {
        let romio = text(Variable::Romio, b"cb_nodes 2\n# c\ncb_nodes 3\nstriping_unit 4\n");
        assert_eq!(romio.entry(b"cb_nodes", None), Some(place(b"2", 1, 1)), "ROMIO keeps the first");
        assert_eq!(romio.entry(b"striping_unit", None), Some(place(b"4", 4, 1)));
        let mut long = b"a 1\n".repeat(1100);
        long.extend_from_slice(b"late 1\n");
        assert_eq!(text(Variable::Romio, &long).entry(b"late", None), None, "past what ROMIO reads");
        let pnetcdf = text(Variable::Pnetcdf, b"cb_nodes=2;x=1;cb_nodes=3");
        assert_eq!(pnetcdf.entry(b"cb_nodes", None), Some(place(b"3", 1, 16)), "PnetCDF keeps the last");
        let cray = text(Variable::MpichMpiio, b"*.nc:cb_nodes=2,*:cb_nodes=4:striping_factor=8");
        assert_eq!(cray.entry(b"cb_nodes", Some(b"/x/a.nc")), Some(place(b"2", 1, 6)));
        assert_eq!(cray.entry(b"cb_nodes", Some(b"/x/a.h5")), Some(place(b"4", 1, 19)));
        assert_eq!(cray.entry(b"striping_factor", Some(b"/x/a.nc")), None, "only the first group that matches");
        assert_eq!(cray.entry(b"cb_nodes", None), None);
    }

    #[test]
    fn romio_reads_its_default_file_when_the_named_one_cannot_be_opened() {
        let dir = std::env::temp_dir().join(format!("hintcheck-sources-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        let (named, default) = (dir.join("named"), dir.join("romio-hints"));
        std::fs::write(&named, b"cb_nodes 1\n").unwrap();
        fn env(romio: Option<&Path>) -> impl Fn(&str) -> Option<OsString> + '_ {
            move |name: &str| match name {
                "ROMIO_HINTS" => romio.map(|p| p.as_os_str().to_owned()),
                "PNETCDF_HINTS" => Some(OsString::from("a=1")),
                _ => None,
            }
        }
        // No default file: the named one, or nothing (noted when it is named).
        let texts = read_environment_from(env(Some(&named)), &default);
        assert_eq!((texts[0].text.as_deref().ok(), texts[0].note.as_deref()), (Some(&b"cb_nodes 1\n"[..]), None));
        assert_eq!(texts[1].variable, Variable::Pnetcdf);
        assert_eq!(read_environment_from(env(None), &default).len(), 1, "PNETCDF_HINTS only");
        let missing = dir.join("missing");
        let texts = read_environment_from(env(Some(&missing)), &default);
        assert!(texts[0].text.as_ref().unwrap_err().contains("cannot be opened"));
        // With the default file: read when ROMIO_HINTS is not set or names a file that cannot be opened.
        std::fs::write(&default, b"cb_nodes 2\n").unwrap();
        for texts in [read_environment_from(env(None), &default), read_environment_from(env(Some(&missing)), &default)]
        {
            assert_eq!(texts[0].file.as_deref(), Some(default.as_os_str().as_bytes()));
            assert_eq!(texts[0].text.as_deref().ok(), Some(&b"cb_nodes 2\n"[..]));
            assert!(texts[0]
                .note
                .as_deref()
                .unwrap()
                .ends_with("ROMIO reads it instead".replace("it", &default.display().to_string()).as_str()));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn precedence() {
        let texts = vec![
            text(Variable::Romio, b"cb_nodes 2\nromio_cb_write enable\n"),
            text(Variable::Pnetcdf, b"cb_buffer_size=8;nc_var_align_size=1m"),
        ];
        let mpich = Rules::new(texts, Some("MPICH"), Some("4.0.2"), false);
        let program: &[(&[u8], &[u8])] = &[(b"cb_nodes", b"1"), (b"cb_buffer_size", b"4")];
        let open =
            Ctx { caller: None, layer_call: false, opens: true, program: None, filename: None, pnetcdf_key: false };
        // The program's cb_nodes wins over the file's; romio_cb_write is the file's.
        let s = mpich.effective(b"cb_nodes", b"1", Some(b"1"), &open);
        assert_eq!(s.from, Origin::Program);
        assert_eq!(s.overridden.len(), 1);
        assert_eq!((s.overridden[0].from, &s.overridden[0].value.0[..]), (Origin::RomioHints, &b"2"[..]));
        assert!(s.overridden[0].why.contains("system_hints.c:188-191"), "{}", s.overridden[0].why);
        let s = mpich.effective(b"romio_cb_write", b"enable", None, &open);
        assert_eq!((s.from, s.line, s.file.map(|f| f.0)), (Origin::RomioHints, Some(2), Some(b"/hints".to_vec())));
        assert_eq!(mpich.effective(b"romio_cb_read", b"automatic", None, &open).from, Origin::Implementation);
        // Made by PnetCDF inside ncmpi_create: PNETCDF_HINTS over the program's.
        let inner = Ctx { caller: Some(LayerKind::Pnetcdf), program: Some(program), ..open };
        let s = mpich.requested(b"cb_buffer_size", b"8", &inner);
        assert_eq!((s.from, s.column), (Origin::PnetcdfHints, Some(1)));
        assert_eq!((s.overridden[0].from, &s.overridden[0].value.0[..]), (Origin::Program, &b"4"[..]));
        assert!(s.overridden[0].why.contains("file.c:146-151 and 236"));
        assert_eq!(mpich.requested(b"cb_nodes", b"1", &inner).from, Origin::Program);
        assert_eq!(mpich.requested(b"nc_burst_buf", b"disable", &inner).from, Origin::Pnetcdf);
        // PnetCDF's own view: its defaults are its own.
        let view =
            Ctx { caller: None, layer_call: true, opens: true, program: None, filename: None, pnetcdf_key: true };
        assert_eq!(mpich.effective(b"nc_header_align_size", b"512", None, &view).from, Origin::Pnetcdf);
        let s = mpich.effective(b"nc_var_align_size", b"1", Some(b"512"), &view);
        assert_eq!((s.from, s.overridden[0].from), (Origin::PnetcdfHints, Origin::Program));
        // Open MPI's OMPIO does not read ROMIO_HINTS: the file's entry is listed, unread.
        let texts = vec![text(Variable::Romio, b"cb_nodes 2\n")];
        let ompio = Rules::new(texts, Some("Open MPI"), Some("4.1.4"), false);
        let s = ompio.effective(b"cb_nodes", b"1", Some(b"1"), &open);
        assert!(s.overridden[0].why.contains("does not read ROMIO_HINTS"), "{}", s.overridden[0].why);
        assert_eq!(ompio.effective(b"cb_nodes", b"2", None, &open).from, Origin::Implementation);
    }
}
