//! `--syntax`: the hint texts the command reads, as the library's readers read them
//! (`mpi_info::hints::syntax`).

use mpi_info::hints::syntax as hints;

/// A syntax of hint text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Syntax {
    /// ROMIO_HINTS file: `key value` per line, `#` comments in the first column.
    Romio,
    /// `key=value` per line, `#` comment lines.
    Kv,
    /// PNETCDF_HINTS: `key=value;key=value`.
    Pnetcdf,
    /// MPICH_MPIIO_HINTS: `pattern:key=value:key=value`, groups separated by `,`.
    Cray,
}

impl From<Syntax> for hints::Syntax {
    fn from(syntax: Syntax) -> hints::Syntax {
        match syntax {
            Syntax::Romio => hints::Syntax::Romio,
            Syntax::Kv => hints::Syntax::Kv,
            Syntax::Pnetcdf => hints::Syntax::Pnetcdf,
            Syntax::Cray => hints::Syntax::Cray,
        }
    }
}
