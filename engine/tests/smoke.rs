//! First checks of the engine driver; the per-rule tables live in `rules_*.rs`.
use engine::{Api, Board, Game, Pos, Seat, Setup, Stage};

fn blocking_cells(board: &Board) -> Vec<(u8, u8)> {
    (0..10_000)
        .map(Pos::from_index)
        .filter(|&p| board.cell(p).kind == engine::Kind::Vide && board.is_blocking(p))
        .map(|p| (p.x, p.y))
        .collect()
}

#[test]
fn rule21_grids_of_the_issue() {
    let closed = Board::from_rows(&[
        "....................",
        "......HHHRHH........",
        "......HHHHHH........",
    ]);
    assert_eq!(blocking_cells(&closed), vec![(9, 0)]);
    let open = Board::from_rows(&[
        "....................",
        "......HHHRHH........",
        "......HHH.HH........",
    ]);
    assert_eq!(blocking_cells(&open), vec![]);
}

#[test]
fn a_house_next_to_the_centre() {
    let mut game = Game::new(Setup::with_order(std::array::from_fn(|i| i as u8), Seat(1)));
    game.advance();
    assert_eq!(game.stage(), Stage::Build { slot: 0 });
    let mut p = game.player(Seat(1));
    assert_eq!(p.mon_tour(), 1);
    assert_eq!(p.construire_maison(51, 51), 0);
    assert_eq!(p.score(0), 1);
    assert_eq!(p.construire_route(50, 51), 0);
    assert_eq!(p.cout_achat_maison(), 1);
    let mut q = game.player(Seat(0));
    assert_eq!(q.appartenance(51, 51), 1);
    assert_eq!(q.construire_maison(49, 49), -10);
}
