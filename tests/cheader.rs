//! The text transformations build.rs applies to cbindgen's output (tools/cheader.rs), on
//! headers shaped like cbindgen's, and on the committed headers.

#[path = "../tools/cheader.rs"]
mod cheader;

use cheader::{abi_handles, mark_section, one_build, ABI_BUILD};

const GENERATED: &str = "#include <stdint.h>
#if defined(MPI_VERSION) && MPI_VERSION >= 2
#define AFTER 1
#endif
#if !defined(MPI_INFO_ABI_BUILD)
#if defined(MPI_INFO_NULL)
#error \"int\"
#elif defined(X)
#error \"x\"
#endif
#endif
#if defined(MPI_INFO_ABI_BUILD)
#error \"abi\"
#endif

#if !(defined(AFTER) || defined(MPI_SUCCESS))
/**
 * No error.
 */
#define MPI_SUCCESS 0
#endif

#if (!defined(MPI_INFO_ABI_BUILD) && !defined(MPI_INFO_NULL))
typedef int MPI_Info;
#endif

#if (defined(MPI_INFO_ABI_BUILD) && !defined(MPI_INFO_NULL))
typedef struct MPI_ABI_Info *MPI_Info;
#endif

#if !defined(MPI_INFO_ABI_BUILD)
int MPI_Info_c2f(MPI_Info info);
#endif

int MPI_Info_create(MPI_Info *info);";

#[test]
fn the_int_build_keeps_its_blocks_and_their_conditions_on_other_names() {
    let header = one_build(GENERATED, ABI_BUILD, false).unwrap();
    assert_eq!(
        header,
        "#include <stdint.h>
#if defined(MPI_VERSION) && MPI_VERSION >= 2
#define AFTER 1
#endif
#if defined(MPI_INFO_NULL)
#error \"int\"
#elif defined(X)
#error \"x\"
#endif

#if !(defined(AFTER) || defined(MPI_SUCCESS))
/**
 * No error.
 */
#define MPI_SUCCESS 0
#endif

#if !defined(MPI_INFO_NULL)
typedef int MPI_Info;
#endif

int MPI_Info_c2f(MPI_Info info);

int MPI_Info_create(MPI_Info *info);"
    );
}

#[test]
fn the_abi_build_keeps_its_blocks() {
    let header = one_build(GENERATED, ABI_BUILD, true).unwrap();
    assert_eq!(
        header,
        "#include <stdint.h>
#if defined(MPI_VERSION) && MPI_VERSION >= 2
#define AFTER 1
#endif
#error \"abi\"

#if !(defined(AFTER) || defined(MPI_SUCCESS))
/**
 * No error.
 */
#define MPI_SUCCESS 0
#endif

#if !defined(MPI_INFO_NULL)
typedef struct MPI_ABI_Info *MPI_Info;
#endif

int MPI_Info_create(MPI_Info *info);"
    );
}

#[test]
fn forms_it_cannot_resolve_are_errors() {
    for bad in [
        "#if (defined(A) || defined(MPI_INFO_ABI_BUILD))\n#endif",
        "#ifdef MPI_INFO_ABI_BUILD\n#endif",
        "#if defined(MPI_INFO_ABI_BUILD)\nint a;\n#else\nint b;\n#endif",
        "#if defined(MPI_INFO_ABI_BUILD)\nint a;",
        "int a;\n#endif",
    ] {
        assert!(one_build(bad, ABI_BUILD, false).is_err(), "{bad:?}");
        assert!(one_build(bad, ABI_BUILD, true).is_err(), "{bad:?}");
    }
}

#[test]
fn predefined_handles_are_written_as_the_standard_writes_them() {
    let header =
        abi_handles("#if !defined(MPI_INFO_NULL)\n#define MPI_INFO_NULL (MPI_Info)304\n#endif\n#define MPI_SUCCESS 0")
            .unwrap();
    assert_eq!(
        header,
        "#if !defined(MPI_INFO_NULL)\n#define MPI_INFO_NULL ((MPI_Info)0x00000130)\n#endif\n#define MPI_SUCCESS 0"
    );
    assert!(abi_handles("#define MPI_INFO_NULL (MPI_Info)x").is_err());
}

#[test]
fn a_section_is_marked_around_its_doc_comments_and_conditions() {
    let header = "#define A 1\n\n#if !defined(B)\n/**\n * B.\n */\n#define MPIX_B 2\n#endif\n\n/**\n * C.\n */\n#define MPIX_C 3\n\n#define D 4";
    let marked = mark_section(header, |line| line.starts_with("#define MPIX_"), "/* begin */", "/* end */").unwrap();
    assert_eq!(
        marked,
        "#define A 1\n\n/* begin */\n\n#if !defined(B)\n/**\n * B.\n */\n#define MPIX_B 2\n#endif\n\n/**\n * C.\n */\n#define MPIX_C 3\n\n/* end */\n\n#define D 4"
    );
    assert!(mark_section(header, |line| line.starts_with("#define MPIY_"), "/* begin */", "/* end */").is_err());
}

/// The committed headers: what only one build has is in that build's header alone, and no
/// condition on the build's define is left.
#[test]
fn the_committed_headers_are_resolved() {
    let int = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/mpi_info.h")).unwrap();
    let abi = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/mpi_info_abi.h")).unwrap();
    for header in [&int, &abi] {
        assert!(!header.contains(ABI_BUILD));
        assert_eq!(header.matches("#if").count(), header.matches("#endif").count());
    }
    assert!(int.contains("typedef int MPI_Info;") && !abi.contains("typedef int MPI_Info;"));
    assert!(abi.contains("typedef struct MPI_ABI_Info *MPI_Info;") && !int.contains("MPI_ABI_Info"));
    assert!(abi.contains("#define MPI_INFO_NULL ((MPI_Info)0x00000130)"));
    assert!(int.contains("#define MPI_INFO_NULL 304"));
    assert!(int.contains("mpi_info_h_requires_libmpi_info;") && !int.contains("requires_libmpi_info_abi"));
    assert!(abi.contains("mpi_info_abi_h_requires_libmpi_info_abi;") && !abi.contains("requires_libmpi_info;"));
    assert!(int.contains("int MPI_Info_c2f(") && !abi.contains("MPI_Info_c2f("));
}
