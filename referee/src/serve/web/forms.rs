//! The organiser's forms: `/organiser` shows them (reading is open), and each POST acts
//! only with the organiser's token (`organiser.rs`) among its fields, from a page of this
//! site (its `Origin` must be the site's own: no other site's page can post it), with a
//! body of at most [`MAX_BODY`] bytes. Create a tournament (`/organiser/tournament`), start
//! one (`/tournament/NAME/start`), start a game between players waiting for a free game
//! (`/organiser/game`). A refusal is a page saying why, and changes nothing; a success
//! goes to the page of what was made.

use super::{organiser, respond};
use crate::serve::tournament_new::{NewTournament, Refused};
use crate::serve::Server;
use crate::view::templates::render;
use std::io::Read;
use std::path::Path;
use tiny_http::Request;

/// The largest form accepted, bytes.
pub const MAX_BODY: u64 = 8 * 1024;

/// `/organiser`: the forms.
pub fn page(request: Request, server: &Server) {
    let page = (|| {
        let waiting = server.lobby.waiting_players();
        let open = server.store.open_tournaments()?;
        render(
            "web/organiser.html",
            minijinja::context! { waiting, open, formats => ["league", "single-elimination", "pools-knockout"],
            games => crate::serve::games::ALL.map(|g| g.runner().name()) },
        )
    })();
    super::pages::rendered(request, server, page);
}

/// A refusal: its page, with `status`; nothing was changed.
fn refuse(request: Request, status: u16, why: &str) {
    match render("web/refused.html", minijinja::context! { why }) {
        Ok(html) => respond::page_with(request, status, html),
        Err(_) => respond::error(request, status, why),
    }
}

/// The fields of a POST from a page of this site carrying the organiser's token, or the
/// refusal already answered.
fn fields(request: &mut Request, token: &Path) -> Result<Vec<(String, String)>, (u16, String)> {
    let header = |name: &'static str| {
        request
            .headers()
            .iter()
            .find(|h| h.field.equiv(name))
            .map(|h| h.value.as_str().to_string())
    };
    if request
        .url()
        .split_once('?')
        .is_some_and(|(_, q)| form_urlencoded::parse(q.as_bytes()).any(|(k, _)| k == "token"))
    {
        return Err((
            403,
            "Refused: the organiser's token was in the address, where histories and logs \
             keep it: nothing was changed. Send it only in the form's token field; if the \
             address was seen, make another token on the server's machine (the help \
             of `referee serve token` says how)."
                .to_string(),
        ));
    }
    let host = header("Host").unwrap_or_default();
    match header("Origin") {
        Some(origin) if origin == format!("http://{host}") => {}
        Some(origin) => {
            return Err((
                403,
                format!(
                    "Refused: this form was sent from {origin}, not from this site's own page: \
                     nothing was changed. Use the form of this site's organiser page."
                ),
            ))
        }
        None => {
            return Err((
                403,
                "Refused: the request names no origin (a browser always sends it with a \
                 form): nothing was changed. Use the form of this site's organiser page."
                    .to_string(),
            ))
        }
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut body)
        .map_err(|e| (400, format!("The form could not be read: {e}")))?;
    if body.len() as u64 > MAX_BODY {
        return Err((
            413,
            format!("Refused: a form of more than {MAX_BODY} bytes: nothing was changed."),
        ));
    }
    let fields: Vec<(String, String)> = form_urlencoded::parse(&body).into_owned().collect();
    let given = fields
        .iter()
        .find(|(k, _)| k == "token")
        .map_or("", |(_, v)| v.as_str());
    if given.is_empty() || !organiser::is_organiser(token, given) {
        let what = if given.is_empty() {
            "has no"
        } else {
            "has not the"
        };
        return Err((
            403,
            format!(
                "Refused: this form {what} organiser's token: nothing was started nor changed. \
                 The organiser reads the token on the server's machine with `referee serve \
                 token`, and pastes it in the form's token field."
            ),
        ));
    }
    Ok(fields)
}

/// The value of field `name` ("" when absent).
fn field<'a>(fields: &'a [(String, String)], name: &str) -> &'a str {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map_or("", |(_, v)| v.trim())
}

/// A number of field `name` (its default when empty), or the refusal naming it.
fn number<T: std::str::FromStr>(
    fields: &[(String, String)],
    name: &str,
    default: T,
) -> Result<T, String> {
    match field(fields, name) {
        "" => Ok(default),
        text => text
            .parse()
            .map_err(|_| format!("The field '{name}' is {text:?}: give a whole number.")),
    }
}

/// Answers `request` with `acted` (the page to go to) or its refusal.
fn answer(request: Request, acted: Result<String, (u16, String)>) {
    match acted {
        Ok(location) => respond::see_other(request, &location),
        Err((status, why)) => refuse(request, status, &why),
    }
}

/// POST `/organiser/tournament`: a new tournament, open.
pub fn new_tournament(mut request: Request, server: &Server, token: &Path) {
    let acted = fields(&mut request, token).and_then(|fields| {
        let bad = |why: String| (400, why);
        let name = field(&fields, "name");
        let new = NewTournament {
            name,
            game: match field(&fields, "game") {
                "" => crate::serve::request::DEFAULT_GAME,
                game => game,
            },
            format: field(&fields, "format"),
            seats: number(&fields, "seats", 2).map_err(bad)?,
            rounds: number(&fields, "rounds", 1).map_err(bad)?,
            pool: number(&fields, "pool", 4).map_err(bad)?,
            qualify: number(&fields, "qualify", 2).map_err(bad)?,
            advance: match field(&fields, "advance") {
                "" => None,
                _ => Some(number(&fields, "advance", 1).map_err(bad)?),
            },
            map: match field(&fields, "map") {
                "" => "USA",
                map => map,
            },
            best_of: number(&fields, "best-of", 1).map_err(bad)?,
            timeout: number(&fields, "timeout", 10).map_err(bad)?,
            max_players: number(&fields, "max-players", 64).map_err(bad)?,
        };
        new.create(&server.store).map_err(|refused| match refused {
            Refused::Value("name", why) => bad(format!(
                "Not created: '{name}' cannot be a tournament's name: {why}."
            )),
            Refused::Value(field, why) => {
                bad(format!("Not created: the field '{field}' is {why}."))
            }
            Refused::Store(e) => bad(format!("Not created: {e:#}.")),
        })?;
        println!("web: the organiser created tournament {name}");
        server.web.tournament_changed(name);
        Ok(format!("/tournament/{name}"))
    });
    answer(request, acted);
}

/// POST `/tournament/NAME/start`: the open tournament NAME starts (the server plays it).
pub fn start_tournament(mut request: Request, server: &Server, token: &Path, name: &str) {
    let acted = fields(&mut request, token).and_then(|_| {
        if !super::is_name(name) {
            return Err((404, "No such tournament on this server.".to_string()));
        }
        let players = server
            .store
            .start_tournament(name)
            .map_err(|e| (400, format!("Not started: {e:#}.")))?;
        println!("web: the organiser started tournament {name} ({players} players)");
        server.web.tournament_changed(name);
        Ok(format!("/tournament/{name}"))
    });
    answer(request, acted);
}

/// POST `/organiser/game`: the players chosen among those waiting for a free game (the
/// fields `player`, two or more) play a game of their own; the list of their games in play.
pub fn new_game(mut request: Request, server: &std::sync::Arc<Server>, token: &Path) {
    let acted = fields(&mut request, token).and_then(|fields| {
        let names: Vec<String> = fields
            .iter()
            .filter(|(k, v)| k == "player" && !v.trim().is_empty())
            .map(|(_, v)| v.trim().to_string())
            .collect();
        if names.len() < 2 {
            return Err((
                400,
                "Not started: choose two players waiting for a free game at least.".to_string(),
            ));
        }
        // Each checked again as the lobby's own tables check it: no squatter of a name
        // registered since it came is seated under it.
        let may_play = |name: &str, link: &crate::serve::remote::Link| {
            crate::serve::session::proves(server, name, link).is_ok()
        };
        let (taken, wanted) = server
            .lobby
            .take(&names, &may_play)
            .map_err(|why| (409, format!("Not started: {why}.")))?;
        crate::serve::session::play_chosen(server, taken, wanted)
            .map_err(|e| (503, format!("Not started: no thread could play it ({e}).")))?;
        println!("web: the organiser started a game of {}", names.join(", "));
        Ok(format!("/?state=playing&player={}", names[0]))
    });
    answer(request, acted);
}
