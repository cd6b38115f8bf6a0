//! The `games` test binary: one match of each game through the real binary: the 2009 game,
//! the Amazons, Ticket to Ride, Little Town and the runner's games; records, replays,
//! faults, the CLI. One module per former test file (each was its own binary, linking the
//! whole referee); `common` is compiled once here.

#[path = "../common/mod.rs"]
mod common;

mod amazons_cli;
mod amazons_match;
mod amazons_tournament;
mod amazons_v1;
mod arena_full_log;
mod arena_model;
mod cli_props;
mod game_options;
mod game_scripted;
mod high_card_runner;
mod human_seat;
mod kits_hostile_server;
mod loi_v4;
mod loi_wire;
mod match_faults;
mod match_names;
mod protocol_props;
mod replay_forged_faults;
mod replay_tamper;
mod serve;
mod serve_kits;
mod serve_results;
mod serve_tournament;
mod serve_tournament_kits;
mod serve_web;
mod serve_web_door;
mod serve_web_hostile;
mod serve_web_knockout;
mod serve_web_league;
mod serve_web_live;
mod serve_web_tournament;
mod ticket_cli;
mod town_runner;
mod town_v1;
