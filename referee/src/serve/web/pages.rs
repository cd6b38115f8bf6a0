//! The site's pages: the list of games (filtered by game, player, state), a game's page (its
//! players, state, result and comments around its board), the board (the game's replay page:
//! live while it is played, from its record after), a player's page (its games, results,
//! faults). Every page from a template that escapes every value (`view::templates`).

use super::computed::{What, PAGES};
use super::respond;
use crate::serve::games::{self, Served};
use crate::serve::store::{self, GameRow};
use crate::serve::Server;
use crate::view::frame::{LiveView, NothingYet};
use crate::view::templates::render;
use serde::Serialize;
use tiny_http::Request;

/// A game as the pages list it.
#[derive(Serialize)]
struct Row {
    name: String,
    game: String,
    kind: String,
    players: Vec<String>,
    state: String,
    /// How it ended for each seat, beside its player (`/player/NAME`'s words), once the
    /// game gave its results: never the joined outcome's text, whose parts quote what
    /// the players sent.
    results: Vec<SeatResult>,
    /// The outcome's text where no seat's result is known: a failed game's why, or a game
    /// of a store of before whose outcome was not read for sure (shown as a quotation).
    outcome: String,
    /// How it ended for the player of the page, on a player's page.
    mine: String,
    started: String,
}

/// A seat's result as the pages show it: its player, how it ended (`won`, `lost`, `lost
/// by a protocol fault`), and the fault's message apart, shown quoted: a player's words in
/// it stay within its own seat's quotation.
#[derive(Serialize)]
struct SeatResult {
    name: String,
    how: String,
    fault: String,
}

impl SeatResult {
    fn of(name: &str, result: &str) -> SeatResult {
        let (how, fault) = match result.split_once(" fault: ") {
            Some((kind, fault)) if result.starts_with("lost by a") => {
                (format!("{kind} fault"), fault)
            }
            _ => (result.to_string(), ""),
        };
        SeatResult {
            name: name.to_string(),
            how,
            fault: fault.to_string(),
        }
    }
}

impl Row {
    fn of(g: &GameRow) -> Row {
        let players: Vec<String> = g.seats.split(',').map(str::to_string).collect();
        let known = g.results.iter().any(|r| !r.is_empty());
        let results = match known {
            true => players
                .iter()
                .enumerate()
                .map(|(seat, name)| {
                    SeatResult::of(name, g.results.get(seat).map_or("", String::as_str))
                })
                .collect(),
            false => Vec::new(),
        };
        Row {
            name: g.name.clone(),
            game: g.game.clone(),
            kind: g.kind.clone(),
            players,
            state: g.state.clone(),
            results,
            outcome: match known {
                true => String::new(),
                false => g.outcome.clone(),
            },
            mine: String::new(),
            started: utc(g.started),
        }
    }
}

/// Seconds since 1970 as an HTTP date (`Mon, 30 Nov 2026 06:20:30 GMT`).
fn utc(seconds: u64) -> String {
    httpdate::fmt_http_date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds))
}

/// The games a page lists at most; the others are on its next pages.
pub const PAGE: u64 = 50;
/// The furthest page asked for (a larger `page=` asks this one): its rows' offset fits
/// the store's integers.
const LAST_PAGE: u64 = 1 << 32;

/// The filters of the list, from the query (`game=`, `player=`, `state=`), and the page
/// asked (`page=`, from 1).
#[derive(Default, Serialize)]
struct Filter {
    game: String,
    player: String,
    state: String,
    page: u64,
}

impl Filter {
    fn of(query: &str) -> Filter {
        let mut f = Filter {
            page: 1,
            ..Filter::default()
        };
        for (key, value) in form_urlencoded::parse(query.as_bytes()) {
            let value = value.into_owned();
            match key.as_ref() {
                "game" => f.game = value,
                "player" => f.player = value,
                "state" => f.state = value,
                "page" => f.page = value.parse().unwrap_or(1).clamp(1, LAST_PAGE),
                _ => {}
            }
        }
        f
    }

    fn of_store(&self) -> store::GameFilter {
        store::GameFilter {
            game: self.game.clone(),
            player: self.player.clone(),
            state: self.state.clone(),
        }
    }
}

/// Where a list of pages is: its page, its number of pages, the query of the previous
/// and next pages (the filters kept), if any.
#[derive(Serialize)]
struct Pages {
    page: u64,
    pages: u64,
    total: u64,
    previous: Option<String>,
    next: Option<String>,
}

impl Pages {
    fn of(filter: &Filter, total: u64) -> Pages {
        let pages = total.div_ceil(PAGE).max(1);
        let at = |page: u64| {
            let mut query = form_urlencoded::Serializer::new(String::new());
            for (key, value) in [
                ("game", &filter.game),
                ("player", &filter.player),
                ("state", &filter.state),
            ] {
                if !value.is_empty() {
                    query.append_pair(key, value);
                }
            }
            query.append_pair("page", &page.to_string());
            format!("?{}", query.finish())
        };
        Pages {
            page: filter.page,
            pages,
            total,
            previous: (filter.page > 1).then(|| at((filter.page - 1).min(pages))),
            next: (filter.page < pages).then(|| at(filter.page + 1)),
        }
    }
}

/// The page of games `filter` asks, newest first, and where it is among its pages.
fn rows(server: &Server, filter: &Filter) -> anyhow::Result<(Vec<Row>, Pages)> {
    let offset = (filter.page - 1).saturating_mul(PAGE);
    let (games, total) = server.store.games_page(&filter.of_store(), offset, PAGE)?;
    let row = |g: &GameRow| Row {
        mine: g.result_of(&filter.player),
        ..Row::of(g)
    };
    Ok((games.iter().map(row).collect(), Pages::of(filter, total)))
}

/// The page made, or the error's answer (and its line in the log, within the bounds of
/// its source's refusal lines).
pub(super) fn rendered(request: Request, server: &Server, page: anyhow::Result<String>) {
    match page {
        Ok(html) => respond::page(request, html),
        Err(e) => {
            // A request reaches a page only with its source (`route`).
            if let Some(source) = super::source_of(&request) {
                server.refusals.say(source, &format!("web: {e:#}"));
            }
            respond::error(
                request,
                500,
                "The server could not make this page; its log says why",
            );
        }
    }
}

/// The list of games (`rows_only`: the table's rows, for the list's script), a page of it.
pub fn games(request: Request, server: &Server, query: &str, rows_only: bool) {
    let filter = Filter::of(query);
    let page = rows(server, &filter).and_then(|(rows, pages)| {
        let names: Vec<&str> = games::ALL.iter().map(|g| g.runner().name()).collect();
        render(
            if rows_only {
                "web/rows.html"
            } else {
                "web/games.html"
            },
            minijinja::context! { rows, filter, pages, games => names },
        )
    });
    rendered(request, server, page);
}

/// The game `name` of the store, if it is one.
fn stored(server: &Server, name: &str) -> Option<GameRow> {
    if !super::is_name(name) {
        return None;
    }
    server.store.game(name).ok().flatten()
}

/// What a game's page says of it: its row and its players' comments.
#[derive(Serialize)]
struct Summary {
    row: Row,
    comments: Vec<(String, String)>,
}

fn summary_of(server: &Server, row: &GameRow) -> anyhow::Result<Summary> {
    Ok(Summary {
        row: Row::of(row),
        comments: server.store.comments_of(&row.name)?,
    })
}

/// A game's page: its players, state, result and comments, its board below.
pub fn game(request: Request, server: &Server, name: &str) {
    let Some(row) = stored(server, name) else {
        return respond::error(request, 404, "No such game on this server");
    };
    let page = summary_of(server, &row)
        .and_then(|summary| render("web/game.html", minijinja::context! { summary }));
    rendered(request, server, page);
}

/// A game's summary alone (its page's script reads it at the game's end).
pub fn summary(request: Request, server: &Server, name: &str) {
    let Some(row) = stored(server, name) else {
        return respond::error(request, 404, "No such game on this server");
    };
    let page = summary_of(server, &row)
        .and_then(|summary| render("web/summary.html", minijinja::context! { summary }));
    rendered(request, server, page);
}

/// A game's board: its replay page, growing while the game is played.
pub fn board(request: Request, server: &Server, name: &str) {
    let Some(row) = stored(server, name) else {
        return respond::error(request, 404, "No such game on this server");
    };
    if let Some(live) = server.web.live(name) {
        let drawn = live.record.as_deref().map(|record| {
            PAGES.answer(What::LiveBoard, name, live.version, || {
                live.game.live(record, LiveView::Page)
            })
        });
        let page = match drawn {
            Some(Ok(html)) => Ok(html.to_string()),
            // A record so far that does not draw (one the rules do not replay): the
            // board once the game ended.
            Some(Err(e)) if !e.is::<NothingYet>() => render(
                "web/waiting.html",
                minijinja::context! { name, why => format!("This game's board is shown once it ends ({e:#}).") },
            ),
            // No record yet, or nothing to draw before the first move.
            _ => render(
                "web/waiting.html",
                minijinja::context! { name, why => "The game is starting.", again => true },
            ),
        };
        return match page {
            Ok(html) => respond::replay_page(request, html),
            Err(e) => rendered(request, server, Err(e)),
        };
    }
    if row.state != "finished" {
        let page = render(
            "web/waiting.html",
            minijinja::context! { name, why => format!("This game is {}: it has no record.", row.state) },
        );
        return rendered(request, server, page);
    }
    let Some(served) = Served::by_name(&row.game) else {
        return respond::error(
            request,
            404,
            "This game's game is not in the store (a store of before)",
        );
    };
    // A finished game's record is written once: its page is computed once.
    match PAGES.answer(What::Board, name, 0, || {
        served.public_page(&server.results.join(name))
    }) {
        Ok(html) => respond::replay_page(request, html.to_string()),
        Err(e) => rendered(request, server, Err(anyhow::anyhow!("{e:#}"))),
    }
}

/// The frame and data of a game in play so far (its board's script grows by them);
/// `{"ended": true}` once it ended (its script may ask just after the end).
pub fn board_json(request: Request, server: &Server, name: &str) {
    let Some(live) = server.web.live(name) else {
        return respond::json(request, r#"{"ended":true}"#.to_string());
    };
    let Some(record) = &live.record else {
        return respond::error(request, 404, "This game has no move yet");
    };
    // A record so far that does not draw (one the rules do not replay): no growth, as
    // its board page says.
    match PAGES.answer(What::Growth, name, live.version, || {
        live.game.live(record, LiveView::Growth)
    }) {
        Ok(json) => respond::json(request, json.to_string()),
        Err(e) if e.is::<NothingYet>() => respond::error(request, 404, "This game has no move yet"),
        Err(_) => respond::error(request, 404, "This game's board does not grow yet"),
    }
}

/// A player's page: its games (a page of them), how each ended for it, its faults.
pub fn player(request: Request, server: &Server, name: &str, query: &str) {
    if !super::is_name(name) {
        return respond::error(
            request,
            404,
            "No such player: a name is letters, digits and _",
        );
    }
    let filter = Filter {
        player: name.to_string(),
        ..Filter::of(query)
    };
    let page = player_page(server, name, &filter);
    rendered(request, server, page);
}

/// A player's page of games, its results and faults on that page, its counts of all.
fn player_page(server: &Server, name: &str, filter: &Filter) -> anyhow::Result<String> {
    let (_, won, faulted) = server.store.counts_of(name)?;
    let (rows, pages) = rows(server, filter)?;
    let mut faults = Vec::new();
    let mine: Vec<(Row, String)> = rows
        .into_iter()
        .map(|row| {
            let mine = row.mine.clone();
            if let Some(fault) = mine.strip_prefix("lost by a ") {
                faults.push((row.name.clone(), fault.to_string()));
            }
            (row, mine)
        })
        .collect();
    render(
        "web/player.html",
        minijinja::context! { name, rows => mine, won, faulted, faults, pages },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_are_read_from_the_query() {
        let f = Filter::of("game=ticket-to-ride&player=a%3Cb&state=&x=1&page=0");
        assert_eq!(f.page, 1);
        assert_eq!(Filter::of("page=18446744073709551615").page, LAST_PAGE);
        assert_eq!(
            (f.game.as_str(), f.player.as_str()),
            ("ticket-to-ride", "a<b")
        );
        assert_eq!(utc(0), "Thu, 01 Jan 1970 00:00:00 GMT");
    }
}
