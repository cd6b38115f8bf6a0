//! How the site answers: pages with their Content-Security-Policy (no script runs but the
//! site's own: its files, or the replay page's inline script named by its hash), its
//! styles and scripts (compiled in), errors as text.

use base64::Engine;
use sha2::{Digest, Sha256};
use tiny_http::{Header, Request, Response};

/// The site's own files, compiled in.
const ASSETS: [(&str, &str, &str); 5] = [
    (
        "site.js",
        "text/javascript",
        include_str!("../../view/assets/web/site.js"),
    ),
    (
        "site.css",
        "text/css",
        include_str!("../../view/assets/web/site.css"),
    ),
    (
        "games.js",
        "text/javascript",
        include_str!("../../view/assets/web/games.js"),
    ),
    (
        "game.js",
        "text/javascript",
        include_str!("../../view/assets/web/game.js"),
    ),
    (
        "tournament.js",
        "text/javascript",
        include_str!("../../view/assets/web/tournament.js"),
    ),
];

/// The policy of the site's own pages: scripts and styles from the site only.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; connect-src 'self'; frame-src 'self'; frame-ancestors 'self'; \
    base-uri 'none'; form-action 'self'";

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a header of ASCII text")
}

fn send<R: std::io::Read>(request: Request, response: Response<R>) {
    let response = response
        .with_header(header("X-Content-Type-Options", "nosniff"))
        // Links leave the site telling nothing; a page of the site names its origin to the
        // site (a browser says `Origin: null` for a form of a `no-referrer` page, and the
        // organiser's forms act only from the site's own origin: `forms.rs`).
        .with_header(header("Referrer-Policy", "same-origin"))
        .with_header(header("Cache-Control", "no-store"));
    // A browser gone before its answer: nothing to do.
    let _ = request.respond(response);
}

/// One of the site's pages.
pub fn page(request: Request, html: String) {
    send(
        request,
        Response::from_string(html)
            .with_header(header("Content-Type", "text/html; charset=utf-8"))
            .with_header(header("Content-Security-Policy", POLICY)),
    );
}

/// One of the site's pages with `status` (a form's refusal).
pub fn page_with(request: Request, status: u16, html: String) {
    send(
        request,
        Response::from_string(html)
            .with_status_code(status)
            .with_header(header("Content-Type", "text/html; charset=utf-8"))
            .with_header(header("Content-Security-Policy", POLICY)),
    );
}

/// A form's success: the browser goes to `location` (a path of the site).
pub fn see_other(request: Request, location: &str) {
    send(
        request,
        Response::from_string(format!("See {location}\n"))
            .with_status_code(303)
            .with_header(header("Location", location))
            .with_header(header("Content-Type", "text/plain; charset=utf-8")),
    );
}

/// A replay page (one self-contained file, its script inline): the policy lets its own
/// inline scripts run, named by their hashes, and no other.
pub fn replay_page(request: Request, html: String) {
    let hashes: String = inline_scripts(&html)
        .map(|code| {
            let digest = Sha256::digest(code.as_bytes());
            format!(
                " 'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            )
        })
        .collect();
    let policy = format!(
        "default-src 'none'; script-src{hashes}; style-src 'unsafe-inline'; img-src data:; \
         connect-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'"
    );
    send(
        request,
        Response::from_string(html)
            .with_header(header("Content-Type", "text/html; charset=utf-8"))
            .with_header(header("Content-Security-Policy", &policy)),
    );
}

/// The code of each `<script>` element with no attribute: the page's own code (its data
/// is in `<script type="application/json">` elements, which hold no `<` at all).
fn inline_scripts(html: &str) -> impl Iterator<Item = &str> {
    html.split("<script>")
        .skip(1)
        .filter_map(|rest| rest.split_once("</script>").map(|(code, _)| code))
}

/// JSON for a page's script.
pub fn json(request: Request, json: String) {
    send(
        request,
        Response::from_string(json)
            .with_header(header("Content-Type", "application/json"))
            .with_header(header("Content-Security-Policy", "default-src 'none'")),
    );
}

/// A file of the site (`/assets/NAME`).
pub fn asset(request: Request, name: &str) {
    match ASSETS.iter().find(|(n, ..)| *n == name) {
        Some((_, kind, text)) => send(
            request,
            Response::from_string(*text).with_header(header("Content-Type", kind)),
        ),
        None => error(request, 404, "No such file"),
    }
}

/// An error, as text.
pub fn error(request: Request, status: u16, message: &str) {
    send(
        request,
        Response::from_string(format!("{message}\n"))
            .with_status_code(status)
            .with_header(header("Content-Type", "text/plain; charset=utf-8")),
    );
}

/// The answer when too many requests are being served.
pub fn busy(request: Request) {
    error(
        request,
        503,
        "The site is serving too many requests; try again in a moment",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_script_elements_without_attributes_are_the_page_s_code() {
        let html = "<script type=\"application/json\" id=\"d\">{\"a\":1}</script>\n\
                    <script>run()</script><script>more()</script>";
        assert_eq!(
            inline_scripts(html).collect::<Vec<_>>(),
            ["run()", "more()"]
        );
    }
}
