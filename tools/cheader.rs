//! The text build.rs changes in cbindgen's output, after cbindgen.toml has said all it can: what
//! `build.rs` includes as a module, and what `tests/cheader.rs` tests.
//!
//! cbindgen reads the sources once for both builds and writes what only one has under
//! `#if [!]defined(MPI_INFO_ABI_BUILD)` ([`one_build`] keeps each header's own); it writes the
//! ABI build's predefined handles as `(MPI_Info)304`, which [`abi_handles`] writes as the
//! standard's `mpi.h` does; and it can put no comment between two items, which [`mark_section`]
//! does for the header's MPIX_ part.

/// The define that cbindgen.toml gives the `abi` feature's items.
pub const ABI_BUILD: &str = "MPI_INFO_ABI_BUILD";

/// `header` as one build sees it, with `define` defined (`defined == true`) or not: each
/// conditional on `define` resolved, the others kept. A conditional on it is one of the forms
/// cbindgen writes, `#if [!]defined(DEFINE)` (resolved whole) or
/// `#if ([!]defined(DEFINE) && REST)` (kept as `#if REST`); blocks nest, and a block that is
/// resolved has no `#else` or `#elif` of its own. Blank lines left next to each other by a
/// dropped block become one.
pub fn one_build(header: &str, define: &str, defined: bool) -> Result<String, String> {
    let positive = format!("defined({define})");
    let negative = format!("!defined({define})");
    // For each open conditional: None if it is kept as written, Some(keep) if it is resolved
    // (its #if and #endif lines left out, its lines kept or dropped).
    let mut open: Vec<Option<bool>> = Vec::new();
    let mut lines = Vec::new();
    for (number, line) in header.split('\n').enumerate() {
        let at = || format!("line {}: {line:?}", number + 1);
        let dropping = open.contains(&Some(false));
        let directive = line.trim_start();
        if let Some(condition) = directive.strip_prefix("#if ") {
            let condition = condition.trim();
            let resolved = if condition == positive || condition == negative {
                Some((condition == positive) == defined)
            } else if let Some(rest) = condition.strip_prefix('(').and_then(|c| c.strip_suffix(')')) {
                match rest.split_once(" && ") {
                    Some((first, rest)) if first == positive || first == negative => {
                        let keep = (first == positive) == defined;
                        if keep && !dropping {
                            lines.push(format!("#if {rest}"));
                        }
                        // Kept as `#if REST`: its #endif stays.
                        open.push(if keep { None } else { Some(false) });
                        continue;
                    }
                    _ => None,
                }
            } else {
                None
            };
            if resolved.is_none() && condition.contains(define) {
                return Err(format!("a condition on {define} in a form not handled, {}", at()));
            }
            open.push(resolved);
            if resolved.is_none() && !dropping {
                lines.push(line.to_string());
            }
        } else if directive.starts_with("#ifdef") || directive.starts_with("#ifndef") {
            if directive.contains(define) {
                return Err(format!("a condition on {define} in a form not handled, {}", at()));
            }
            open.push(None);
            if !dropping {
                lines.push(line.to_string());
            }
        } else if directive.starts_with("#endif") {
            match open.pop() {
                None => return Err(format!("#endif without #if, {}", at())),
                Some(None) if !dropping => lines.push(line.to_string()),
                Some(_) => {}
            }
        } else if directive.starts_with("#else") || directive.starts_with("#elif") {
            if open.last().is_some_and(Option::is_some) {
                return Err(format!("#else or #elif in a block on {define}, {}", at()));
            }
            if !dropping {
                lines.push(line.to_string());
            }
        } else if !dropping {
            lines.push(line.to_string());
        }
    }
    if !open.is_empty() {
        return Err(format!("{} #if without #endif", open.len()));
    }
    lines.dedup_by(|a, b| a.is_empty() && b.is_empty());
    Ok(lines.join("\n"))
}

/// Each `#define NAME (MPI_Info)NUMBER` written as the standard ABI's `mpi.h` writes its
/// predefined handles, `#define NAME ((MPI_Info)0x00000130)`: a constant expression that is
/// one token group wherever it is used.
pub fn abi_handles(header: &str) -> Result<String, String> {
    let mut lines = Vec::new();
    for line in header.split('\n') {
        match line.strip_prefix("#define ").and_then(|rest| rest.split_once(" (MPI_Info)")) {
            Some((name, value)) => {
                let value: u32 =
                    value.parse().map_err(|_| format!("a predefined handle that is no number: {line:?}"))?;
                lines.push(format!("#define {name} ((MPI_Info)0x{value:08x})"));
            }
            None => lines.push(line.to_string()),
        }
    }
    Ok(lines.join("\n"))
}

/// `header` with `begin` and a blank line before the first line that `in_section` picks (before
/// its doc comment, and before the `#if` line above that, if any), and a blank line and `end`
/// after the last such line (after the `#endif` below it, if any).
pub fn mark_section(header: &str, in_section: impl Fn(&str) -> bool, begin: &str, end: &str) -> Result<String, String> {
    let lines: Vec<&str> = header.split('\n').collect();
    let first = lines.iter().position(|line| in_section(line)).ok_or_else(|| format!("no line for {begin:?}"))?;
    let mut last = lines.iter().rposition(|line| in_section(line)).expect("a first line is a last line");
    let mut start = lines[..first].iter().rposition(|line| line.starts_with("/**")).filter(|&doc| {
        // The doc comment of the first line, not of an item before it.
        lines[doc..first]
            .iter()
            .all(|line| line.starts_with("/**") || line.starts_with(" *") || line.starts_with("#if"))
    });
    if let Some(doc) = start {
        if doc > 0 && lines[doc - 1].starts_with("#if") {
            start = Some(doc - 1);
        }
    }
    let start = start.unwrap_or(first);
    if lines.get(last + 1).is_some_and(|line| line.starts_with("#endif")) {
        last += 1;
    }
    let mut marked = Vec::with_capacity(lines.len() + 4);
    marked.extend_from_slice(&lines[..start]);
    marked.extend([begin, ""]);
    marked.extend_from_slice(&lines[start..=last]);
    marked.extend(["", end]);
    marked.extend_from_slice(&lines[last + 1..]);
    Ok(marked.join("\n"))
}
