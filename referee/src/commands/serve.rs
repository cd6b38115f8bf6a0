//! `referee serve`: the game server, from its flags (docs/server.md).

use super::Failure;
use crate::cli::{ServeAction, ServeArgs};
use crate::serve::store::Store;
use std::path::Path;

/// Runs the server of `args` until the process is stopped, or the store's command.
pub fn run(args: ServeArgs) -> Result<(), Failure> {
    let store = args
        .store
        .clone()
        .unwrap_or_else(|| args.results.join(crate::serve::store::FILE));
    match &args.action {
        None => {}
        Some(ServeAction::Register { name }) => return register(&args, &store, name),
        Some(ServeAction::Games) => return games(&store),
        Some(ServeAction::Token { new }) => return token(&args, &store, *new),
        Some(ServeAction::Tournament { action }) => {
            return super::serve_tournament::run(&args.results, &store, action)
        }
    }
    let limits = jail::champion::Limits {
        sandbox: jail::sandbox::probe(args.sandbox).plan(),
        ..Default::default()
    };
    eprintln!("{}", limits.sandbox.line());
    if !args.listen.ip().is_loopback() {
        eprintln!(
            "listening on {}: open to the network (the default is 127.0.0.1)",
            args.listen
        );
    }
    if let Some(web) = args.web.filter(|w| !w.ip().is_loopback()) {
        eprintln!(
            "web site on {web}: open to the network: anyone who reaches it sees every game's \
             players, results and comments (put it behind your own proxy for TLS)"
        );
    }
    // The address a browser on this machine connects from: the organiser's pages would
    // count as the proxy's, never among the connections kept for the server's machine.
    if let Some(proxy) = args
        .web_proxy
        .filter(|p| *p == std::net::Ipv4Addr::LOCALHOST || *p == std::net::Ipv6Addr::LOCALHOST)
    {
        eprintln!(
            "web proxy {proxy}: a browser on this machine connects from that address too, so \
             the organiser's pages count as the proxy's and lose the connections kept for \
             this machine; have the proxy connect from another loopback address (nginx: \
             `proxy_bind 127.0.0.2;`) and name that one (--web-proxy 127.0.0.2)"
        );
    }
    crate::serve::run(crate::serve::Config {
        listen: args.listen,
        results: args.results,
        store,
        max_connections: args.max_connections,
        per_address: args.per_address,
        games_per_minute: args.games_per_minute,
        game_time: std::time::Duration::from_secs(args.game_time),
        limits,
        web: args.web,
        web_proxy: args.web_proxy,
    })
    .map_err(
        |error| match error.downcast_ref::<crate::serve::fds::TooFewFiles>() {
            Some(few) => Failure::usage(anyhow::anyhow!(
                "--max-connections {} needs {} open files and the limit is {} (the hard limit \
             of open files, RLIMIT_NOFILE): raise it (ulimit -Hn, or LimitNOFILE= of a \
             service) or give --max-connections {} or less",
                few.max_connections,
                few.needed,
                few.limit,
                few.fits
            )),
            None => Failure::usage(error),
        },
    )
}

/// `referee serve register NAME`: the name's new token, printed alone on stdout.
fn register(args: &ServeArgs, store: &Path, name: &str) -> Result<(), Failure> {
    // The name exactly as a client sends it: one no client could send (` carol`) would
    // protect nothing.
    crate::serve::request::valid_name(name)
        .and_then(|()| crate::serve::request::not_a_bot(name))
        .map_err(|why| Failure::usage(anyhow::anyhow!("register {name:?}: {why}")))?;
    std::fs::create_dir_all(&args.results).map_err(|e| {
        Failure::usage(anyhow::anyhow!(
            "cannot create {} (--results): {e}",
            args.results.display()
        ))
    })?;
    let token = Store::open_only(store)
        .and_then(|s| s.register(name))
        .map_err(Failure::usage)?;
    println!("{token}");
    eprintln!("{name} registered: its games need the option token={token}");
    Ok(())
}

/// `referee serve token [--new]`: the organiser's token, printed alone on stdout.
fn token(args: &ServeArgs, store: &Path, new: bool) -> Result<(), Failure> {
    std::fs::create_dir_all(store.parent().unwrap_or(&args.results)).map_err(|e| {
        Failure::usage(anyhow::anyhow!(
            "cannot create the store's folder (--results or --store): {e}"
        ))
    })?;
    let file = crate::serve::web::organiser::path(store);
    let token = crate::serve::web::organiser::ensure(&file, new).map_err(Failure::usage)?;
    println!("{token}");
    eprintln!(
        "the organiser's token (in {}): the web site's forms need it to start a game or a \
         tournament",
        file.display()
    );
    Ok(())
}

/// `referee serve games`: a line a game, oldest first.
fn games(store: &Path) -> Result<(), Failure> {
    if !store.exists() {
        return Err(Failure::usage(anyhow::anyhow!(
            "no store at {} (the server's --results or --store)",
            store.display()
        )));
    }
    let rows = Store::open_only(store)
        .and_then(|s| s.games())
        .map_err(Failure::usage)?;
    for g in rows {
        println!(
            "{} {} {} [{}] {}",
            g.name, g.kind, g.state, g.seats, g.outcome
        );
    }
    Ok(())
}
