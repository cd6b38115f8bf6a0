//! The links a tournament puts in each replay page (`<nav id="match-nav">` of both games'
//! pages): back to the index, to the previous and the next match in id order. Written
//! into a new page, and rewritten in an existing one when they changed (a resumed or
//! merged tournament has new neighbours): the element is found as the page's first
//! `<nav id="match-nav">` (before it, only the template's markup and escaped text).
//!
//! The nav also keeps, in a hidden element, the match's faults with their steps: finding
//! a 2009 fault's step replays the whole match (tens of milliseconds), so a page whose
//! links are rewritten gives them back without a replay.

use crate::games::FaultStep;

const OPEN: &str = "<nav id=\"match-nav\">";
const CLOSE: &str = "</nav>";

/// One match's place in the tournament, as links relative to its directory.
pub struct Place<'a> {
    pub index: &'a str,
    pub id: u64,
    /// The previous and the next match with a replay: their id and link.
    pub prev: Option<(u64, String)>,
    pub next: Option<(u64, String)>,
    /// Its position among the matches with a replay (1-based), and how many there are.
    pub position: usize,
    pub count: usize,
}

const FAULTS: &str = "<span id=\"nav-faults\" hidden data-faults=\"";

/// The nav element's content (`assets/index/nav.html`): the links, and `faults` kept for
/// the next index.
pub fn links(place: &Place, faults: &[FaultStep]) -> String {
    let neighbour = |n: &Option<(u64, String)>| {
        n.as_ref()
            .map(|(id, href)| minijinja::context! { id => id, href => href })
    };
    crate::view::templates::render(
        "index/nav.html",
        minijinja::context! {
            index => place.index,
            id => place.id,
            prev => neighbour(&place.prev),
            next => neighbour(&place.next),
            position => place.position,
            count => place.count,
            faults => serde_json::to_string(faults).expect("faults serialise"),
        },
    )
    .expect("the nav's template renders any place")
}

/// The faults a page's nav keeps, if it keeps them.
pub fn kept_faults(page: &str) -> Option<Vec<FaultStep>> {
    let start = page.find(OPEN)?;
    let end = start + page[start..].find(CLOSE)?;
    let nav = &page[start..end];
    let from = nav.find(FAULTS)? + FAULTS.len();
    let text = &nav[from..from + nav[from..].find('"')?];
    let json = text
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&json).ok()
}

/// `page` with its nav element holding `content`; `None` when it already does, or when
/// the page has no such element (a page written by an older referee).
pub fn splice(page: &str, content: &str) -> Option<String> {
    let start = page.find(OPEN)? + OPEN.len();
    let end = start + page[start..].find(CLOSE)?;
    if &page[start..end] == content {
        return None;
    }
    Some(format!("{}{content}{}", &page[..start], &page[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_fills_the_element_once_and_then_only_when_it_changes() {
        let page = "<h1>a</h1><nav id=\"match-nav\"></nav><p>nav</p></nav>";
        let once = splice(page, "X").unwrap();
        assert_eq!(
            once,
            "<h1>a</h1><nav id=\"match-nav\">X</nav><p>nav</p></nav>"
        );
        assert_eq!(splice(&once, "X"), None);
        assert_eq!(
            splice(&once, "Y").unwrap(),
            "<h1>a</h1><nav id=\"match-nav\">Y</nav><p>nav</p></nav>"
        );
        assert_eq!(splice("<nav></nav>", "X"), None);
    }

    #[test]
    fn links_name_the_neighbours_and_escape_the_hrefs() {
        let place = Place {
            index: "../../index.html",
            id: 4,
            prev: Some((3, "../3/replay.html".into())),
            next: None,
            position: 4,
            count: 4,
        };
        let html = links(&place, &[]);
        assert!(html.contains("href=\"../3/replay.html\">&#x2190; match 3</a>"));
        assert!(html.contains("match 4 (4 of 4)") && !html.contains("nav-next"));
        let odd = Place {
            index: "a\"b",
            prev: None,
            ..place
        };
        assert!(links(&odd, &[]).contains("href=\"a&quot;b\""));
    }

    #[test]
    fn the_faults_kept_in_the_nav_come_back_as_they_were() {
        let faults = vec![FaultStep {
            seat: 2,
            step: 37,
            kind: "crash".into(),
            message: "quoted `</nav>\"<b>&amp;'` here".into(),
        }];
        let place = Place {
            index: "../../index.html",
            id: 0,
            prev: None,
            next: None,
            position: 1,
            count: 1,
        };
        let page = splice("<nav id=\"match-nav\"></nav>", &links(&place, &faults)).unwrap();
        assert!(!page.contains("</nav>\""), "{page}");
        assert_eq!(kept_faults(&page), Some(faults));
        assert_eq!(kept_faults("<nav id=\"match-nav\"></nav>"), None);
    }
}
