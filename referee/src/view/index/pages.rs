//! The HTML of the index and of each champion's page: the leaderboard first, the
//! pairwise matrix and seats, and the list of matches (replay link first on each row,
//! sortable and filterable by `assets/index.js`), every champion's or file's text escaped.

use super::tables::{Match, Table};
use super::Entry;
use jail::untrusted::printable;

const CSS: &str = include_str!("../assets/index.css");
const JS: &str = include_str!("../assets/index.js");

/// Text from a champion or a file, safe in HTML: control characters as escapes, markup
/// characters as entities.
pub fn text(s: &str) -> String {
    escape(&printable(s))
}

/// A whole page: `kind` (`index`, `champion`) on `<html data-page>`, its title, its body.
pub fn page(kind: &str, title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\" data-page=\"{kind}\"><head><meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{CSS}</style></head>\n<body>\n{body}\
         <script>{JS}</script>\n</body></html>\n"
    )
}

/// A table of a CSV file, every column; cells of `champion` columns link to the
/// champion's page (`champion_href`). Sortable by any column.
pub fn csv_table(
    id: &str,
    table: &Table,
    champion_href: &dyn Fn(&str) -> Option<String>,
) -> String {
    let mut out =
        format!("<div class=\"wide\"><table id=\"{id}\" class=\"sortable\">\n<thead><tr>");
    let numeric: Vec<bool> = (0..table.header.len())
        .map(|c| {
            table.rows.iter().all(|r| {
                r.get(c)
                    .is_none_or(|v| v.is_empty() || v.parse::<f64>().is_ok())
            })
        })
        .collect();
    for (h, &n) in table.header.iter().zip(&numeric) {
        let kind = if n { " data-type=\"n\"" } else { "" };
        out.push_str(&format!("<th{kind}>{}</th>", text(h)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in &table.rows {
        out.push_str("<tr>");
        for (c, field) in row.iter().enumerate() {
            let is_champion = table
                .header
                .get(c)
                .is_some_and(|h| h == "champion" || h == "opponent");
            match champion_href(field).filter(|_| is_champion) {
                Some(href) => out.push_str(&format!(
                    "<td><a href=\"{}\">{}</a></td>",
                    escape(&href),
                    text(field)
                )),
                None if numeric.get(c) == Some(&true) => {
                    out.push_str(&format!("<td class=\"n\">{}</td>", text(field)))
                }
                None => out.push_str(&format!("<td>{}</td>", text(field))),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    out
}

/// The pairwise results as a matrix: row champion against column opponent, "ahead-behind"
/// with ties after a slash when there are any; `None` if the columns are not there.
pub fn pairwise_matrix(table: &Table) -> Option<String> {
    let (c, o, ahead, tied, behind) = (
        table.column("champion")?,
        table.column("opponent")?,
        table.column("ahead")?,
        table.column("tied")?,
        table.column("behind")?,
    );
    let rows: Vec<&Vec<String>> = table
        .rows
        .iter()
        .filter(|r| r.len() > c.max(o).max(ahead).max(tied).max(behind))
        .collect();
    let mut names: Vec<&str> = Vec::new();
    for row in &rows {
        if !names.contains(&row[c].as_str()) {
            names.push(&row[c]);
        }
    }
    let mut out = String::from(
        "<p class=\"src\">Row against column: matches the row champion finished ahead-behind \
         (/tied)</p>\n<div class=\"wide\"><table id=\"pairwise-matrix\">\n<thead><tr><th></th>",
    );
    for name in &names {
        out.push_str(&format!("<th>{}</th>", text(name)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row_name in &names {
        out.push_str(&format!("<tr><th>{}</th>", text(row_name)));
        for col_name in &names {
            let cell = rows.iter().find(|r| r[c] == *row_name && r[o] == *col_name);
            let shown = match cell {
                Some(r) if r[tied] != "0" => format!("{}-{}/{}", r[ahead], r[behind], r[tied]),
                Some(r) => format!("{}-{}", r[ahead], r[behind]),
                None => String::new(),
            };
            out.push_str(&format!("<td class=\"n\">{}</td>", text(&shown)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    Some(out)
}

/// The filter of a match list: a name to look for, faults only, and how many are shown.
pub fn filter_tools(what: &str) -> String {
    format!(
        "<div class=\"tools\"><label>{what} <input id=\"filter\" type=\"search\" \
         placeholder=\"part of a name\" autocomplete=\"off\"></label> <label><input \
         id=\"faults-only\" type=\"checkbox\"> only matches with a fault</label> <span \
         id=\"shown\" aria-live=\"polite\"></span> <span class=\"src\">Click a column's \
         title to sort by it.</span></div>\n"
    )
}

/// Where a page is: links from it are `prefix` + a link from the tournament directory.
pub struct From<'a> {
    pub prefix: &'a str,
}

impl From<'_> {
    fn href(&self, link: &str) -> String {
        escape(&format!("{}{link}", self.prefix))
    }

    /// The first cell of a match's row: its replay, or why there is none.
    pub fn replay_cell(&self, e: &Entry) -> String {
        match (&e.href, &e.replay_error) {
            (Some(_), Some(error)) => {
                format!("<td class=\"src\" title=\"{}\">no replay</td>", text(error))
            }
            (Some(dir), None) => format!(
                "<td><a class=\"replay\" href=\"{}\">replay</a></td>",
                self.href(&format!("{dir}/replay.html"))
            ),
            (None, _) => {
                "<td class=\"src\" title=\"no record.json found for this match\">no record</td>"
                    .to_string()
            }
        }
    }

    /// The id cell: the seed and the command that plays the match again as its title.
    pub fn id_cell(&self, m: &Match) -> String {
        format!(
            "<td class=\"n\" title=\"seed {}: {}\">{}</td>",
            text(&m.seed),
            text(&m.reproduce),
            m.id
        )
    }

    /// A champion's name, linked to its page.
    pub fn champion(&self, name: &str, page: Option<&String>) -> String {
        match page {
            Some(p) => format!("<a href=\"{}\">{}</a>", self.href(p), text(name)),
            None => text(name),
        }
    }

    /// The faults of `seats` of a match, each linked to its step of the replay.
    pub fn faults(&self, e: &Entry, seats: &[usize]) -> String {
        let mut parts = Vec::new();
        for &s in seats {
            let kind = &e.m.seats[s].fault;
            if kind.is_empty() {
                continue;
            }
            let steps: Vec<_> = e
                .faults
                .iter()
                .filter(|f| usize::from(f.seat) == s)
                .collect();
            match (&e.href, steps.first()) {
                (Some(dir), Some(f)) => parts.push(format!(
                    "<a class=\"fault\" data-seat=\"{s}\" data-step=\"{}\" href=\"{}\" title=\"{}\">seat {s} {} at step {}</a>",
                    f.step,
                    self.href(&format!("{dir}/replay.html#step={}", f.step)),
                    text(&format!("{}: {}", f.kind, f.message)),
                    text(kind),
                    f.step
                )),
                _ => parts.push(format!("seat {s} {}", text(kind))),
            }
        }
        parts.join("<br>")
    }

    /// Links to the record and to the stderr files of `seats`.
    pub fn files(&self, e: &Entry, seats: &[usize]) -> String {
        let Some(dir) = &e.href else {
            return String::new();
        };
        let mut out = format!(
            "<a class=\"record\" href=\"{}\">record</a>",
            self.href(&format!("{dir}/record.json"))
        );
        for &s in seats {
            if let Some(Some(bytes)) = e.stderr.get(s) {
                out.push_str(&format!(
                    " <a class=\"stderr\" data-seat=\"{s}\" href=\"{}\" title=\"{bytes} bytes\">stderr {s}</a>",
                    self.href(&format!("{dir}/seat{s}.stderr"))
                ));
            }
        }
        out
    }
}

/// The attributes of a match's row: its id, the names the filter looks in, whether it has
/// a fault.
pub fn row_attributes(m: &Match, names: &[&str]) -> String {
    let names: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
    format!(
        "data-id=\"{}\" data-names=\"{}\" data-fault=\"{}\"",
        m.id,
        text(&names.join(" / ")),
        u8::from(m.has_fault())
    )
}

/// Escape text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
