//! Terminal text fitted to the terminal's width (`show`): sentences are wrapped at spaces,
//! their next lines indented under their first; columns (a board, a table: a line with a
//! run of two spaces in its text) cannot wrap and are cut with `…`. A champion's stderr line
//! (`    | ...`) is its own words: wrapped, never cut. Widths are counted as the terminal
//! shows them (colours' escape sequences take no room; wide characters take two).

/// Where a champion's stderr line starts (`console_text.rs`).
const STDERR: &str = "    | ";

/// `text`, each line fitted to `width` columns (at least 20: narrower, nothing reads).
pub fn fit(text: &str, width: usize) -> String {
    let width = width.max(20);
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        if console::measure_text_width(body) <= width {
            out.push_str(line);
            continue;
        }
        let indent = &body[..body.len() - body.trim_start().len()];
        let is_stderr = body.starts_with(STDERR);
        if !is_stderr && body.trim_start().contains("  ") {
            out.push_str(&cut(body, width));
        } else {
            let next = match is_stderr {
                true => format!("{STDERR}  "),
                false => format!("{indent}  "),
            };
            let options = textwrap::Options::new(width)
                .subsequent_indent(&next)
                .break_words(true);
            out.push_str(&textwrap::fill(body, options));
        }
        out.push_str(end);
    }
    out
}

/// `line` cut to `width` columns, its last one a `…`; a colour open at the cut is closed.
fn cut(line: &str, width: usize) -> String {
    let mut cut = console::truncate_str(line, width, "…").into_owned();
    if cut.contains('\x1b') {
        cut.push_str("\x1b[0m");
    }
    cut
}

/// The width `show` fits its text to: the environment's `COLUMNS` when it holds a width,
/// else the terminal's that standard output writes to; none (lines as they are) when
/// standard output is a file or a pipe and `COLUMNS` is not set.
pub fn terminal_width() -> Option<usize> {
    let columns = std::env::var("COLUMNS").ok();
    match columns.and_then(|c| c.trim().parse::<usize>().ok()) {
        Some(width) if width > 0 => Some(width),
        _ => console::Term::stdout()
            .size_checked()
            .map(|(_, cols)| usize::from(cols)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_wrap_under_their_first_line_and_columns_are_cut() {
        let text = "actions of seat 0 in jouer: construire_maison 3 4 -> ok, fin -> ok\n\
                    seat  champion  money\n";
        let fitted = fit(text, 30);
        assert_eq!(
            fitted,
            "actions of seat 0 in jouer:\n  construire_maison 3 4 -> ok,\n  fin -> ok\n\
             seat  champion  money\n"
        );
        assert_eq!(
            fit(" 12  A B # # # # # # # # # # # # # #\n", 20),
            " 12  A B # # # # # …\n"
        );
        for line in fit(&"word ".repeat(100), 40).lines() {
            assert!(console::measure_text_width(line) <= 40, "{line:?}");
        }
    }

    #[test]
    fn a_champion_s_line_wraps_whole_and_colours_take_no_room() {
        let line = format!("{STDERR}{}\n", "x".repeat(50));
        let fitted = fit(&line, 30);
        assert_eq!(fitted.replace(['\n', ' ', '|'], ""), "x".repeat(50));
        assert!(fitted.lines().skip(1).all(|l| l.starts_with("    |   ")));
        let red = "\x1b[31mAB\x1b[0m".repeat(10);
        assert_eq!(fit(&red, 20), red, "20 columns shown: it fits");
        let cut = fit(&format!("  {red}  {red}"), 21);
        assert!(console::measure_text_width(&cut) <= 21, "{cut:?}");
        assert!(console::strip_ansi_codes(&cut).ends_with('…'), "{cut:?}");
        assert!(
            cut.ends_with("\x1b[0m"),
            "a colour open at the cut is closed: {cut:?}"
        );
    }
}
