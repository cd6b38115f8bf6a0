//! Ticket to Ride through the game model: it passes what every game must
//! (`game::testing::conformance`) on both boards and every number of seats.

use game::Game;
use ticket::TicketToRide;

#[test]
fn it_conforms_on_the_usa_board() {
    game::testing::conformance(&TicketToRide, 12, 20_000).unwrap();
}

#[test]
fn it_conforms_on_the_small_board() {
    struct Small;
    impl Game for Small {
        type State = ticket::TicketState;
        fn name(&self) -> &'static str {
            "ticket-to-ride-small"
        }
        fn title(&self) -> &'static str {
            "Ticket to Ride (small)"
        }
        fn version(&self) -> u32 {
            1
        }
        fn seats(&self) -> std::ops::RangeInclusive<usize> {
            TicketToRide.seats()
        }
        fn options(&self) -> &'static [game::OptionSpec] {
            &[game::OptionSpec {
                name: "board",
                help: "the board",
                default: "small",
                kind: game::options::Kind::Text,
            }]
        }
        fn start(&self, seats: usize, options: &game::Options) -> Result<Self::State, String> {
            TicketToRide.start(seats, options)
        }
    }
    game::testing::conformance(&Small, 12, 20_000).unwrap();
}
