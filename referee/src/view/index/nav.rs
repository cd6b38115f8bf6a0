//! The links a tournament puts in each replay page (`<nav id="match-nav">` of both games'
//! pages): back to the index, to the previous and the next match in id order. Written
//! into a new page, and rewritten in an existing one when they changed (a resumed or
//! merged tournament has new neighbours): the element is found as the page's first
//! `<nav id="match-nav">` (before it, only the template's markup and escaped text).
//! Nothing is read back from a page: a page in a results folder may be anyone's.

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

/// The nav element's content (`assets/index/nav.html`): the links.
pub fn links(place: &Place) -> String {
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
        },
    )
    .expect("the nav's template renders any place")
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
        let html = links(&place);
        assert!(html.contains("href=\"../3/replay.html\">&#x2190; match 3</a>"));
        assert!(html.contains("match 4 (4 of 4)") && !html.contains("nav-next"));
        let odd = Place {
            index: "a\"b",
            prev: None,
            ..place
        };
        assert!(links(&odd).contains("href=\"a&quot;b\""));
    }
}
