//! Property tests of the protocol parser (`referee::protocol::Request::parse`), the first
//! thing a champion's bytes meet: no line makes it panic; every well-formed request, in any
//! spacing, parses to what it was made from and prints back as the referee records it;
//! every malformed one is refused with a message that quotes it and names what is wrong.

use engine::call::{Call, Function};
use engine::Callback;
use proptest::prelude::*;
use referee::protocol::Request;

fn callback() -> impl Strategy<Value = Callback> {
    prop::sample::select(Callback::ALL.to_vec())
}

fn function() -> impl Strategy<Value = Function> {
    prop::sample::select(Function::ALL.to_vec())
}

/// Spaces and tabs between words, as a champion might write them.
fn gap() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vec![" ", "\t"]), 1..4).prop_map(|g| g.concat())
}

/// A well-formed call and a line that says it (any spacing, maybe a trailing `\r`).
fn well_formed() -> impl Strategy<Value = (Call, String)> {
    function()
        .prop_flat_map(|f| {
            (
                Just(f),
                prop::collection::vec(any::<i32>(), f.arity()),
                prop::collection::vec(gap(), f.arity() + 2),
                any::<bool>(),
            )
        })
        .prop_map(|(f, args, gaps, cr)| {
            let mut line = gaps[0].clone();
            line.push_str(f.name());
            for (arg, gap) in args.iter().zip(&gaps[1..]) {
                line.push_str(gap);
                line.push_str(&arg.to_string());
            }
            line.push_str(&gaps[f.arity() + 1]);
            if cr {
                line.push('\r');
            }
            (Call::new(f, &args).unwrap(), line)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any bytes: a request or an error that quotes at most a bounded start of the line and
    /// says during which callback.
    #[test]
    fn no_line_panics(bytes in prop::collection::vec(any::<u8>(), 0..300), cb in callback()) {
        let line = String::from_utf8_lossy(&bytes);
        if let Err(message) = Request::parse(&line, cb) {
            prop_assert!(message.contains(cb.name()), "{message}");
            prop_assert!(message.len() < 400, "{message}");
            prop_assert!(message.bytes().all(|b| (0x20..0x7f).contains(&b)), "{message:?}");
        }
    }

    /// Printable ASCII made of API words and numbers, the likeliest near-misses.
    #[test]
    fn near_misses_never_panic(
        words in prop::collection::vec(
            prop_oneof![
                function().prop_map(|f| f.name().to_string()),
                any::<i64>().prop_map(|n| n.to_string()),
                Just("fin".to_string()),
                Just("etat".to_string()),
                "[ -~]{0,12}",
            ],
            0..7,
        ),
        cb in callback(),
    ) {
        let line = words.join(" ");
        match Request::parse(&line, cb) {
            Ok(Request::Call(call)) => {
                // What parsed prints back as its words, single-spaced.
                prop_assert_eq!(call.to_string(), line.split_whitespace().collect::<Vec<_>>().join(" "));
            }
            Ok(Request::Fin) => prop_assert_eq!(line.trim(), "fin"),
            Ok(Request::Etat) => prop_assert_eq!(line.trim(), "etat"),
            Err(message) => prop_assert!(message.contains(cb.name()), "{message}"),
        }
    }

    /// Every well-formed call parses to itself and prints back canonically.
    #[test]
    fn well_formed_calls_parse_to_themselves((call, line) in well_formed(), cb in callback()) {
        let parsed = Request::parse(&line, cb);
        prop_assert_eq!(&parsed, &Ok(Request::Call(call)), "{:?}", line);
        let canonical = call.to_string();
        prop_assert_eq!(Request::parse(&canonical, cb), Ok(Request::Call(call)));
        prop_assert!(!canonical.contains("  ") && !canonical.ends_with(' '));
    }

    /// One argument too many or too few: the message names the function and its arity.
    #[test]
    fn wrong_arity_is_named(
        f in function(),
        extra in any::<bool>(),
        args in prop::collection::vec(-1000i32..1000, 0..6),
        cb in callback(),
    ) {
        let n = if extra { f.arity() + 1 } else if f.arity() > 0 { f.arity() - 1 } else { 1 };
        prop_assume!(args.len() >= n);
        let line = std::iter::once(f.name().to_string())
            .chain(args[..n].iter().map(i32::to_string))
            .collect::<Vec<_>>()
            .join(" ");
        let message = Request::parse(&line, cb).unwrap_err();
        prop_assert!(message.starts_with("wrong number of arguments"), "{message}");
        prop_assert!(message.contains(&format!("`{}` takes {}", f.name(), f.arity())), "{message}");
    }

    /// A number outside 32 bits, or not a number, is quoted.
    #[test]
    fn bad_numbers_are_quoted(
        f in function().prop_filter("takes an argument", |f| f.arity() > 0),
        bad in prop_oneof![
            (i64::from(i32::MAX) + 1..i64::MAX).prop_map(|n| n.to_string()),
            (i64::MIN..i64::from(i32::MIN)).prop_map(|n| n.to_string()),
            Just("99999999999999999999".to_string()),
            Just("1.5".to_string()),
            Just("0x10".to_string()),
            Just("ten".to_string()),
            Just("+-1".to_string()),
        ],
        cb in callback(),
    ) {
        let mut words = vec![f.name().to_string(), bad.clone()];
        words.extend(std::iter::repeat_n("0".to_string(), f.arity() - 1));
        let message = Request::parse(&words.join(" "), cb).unwrap_err();
        prop_assert!(
            message.contains(&format!("`{bad}`")) && message.contains("is not a 32-bit integer"),
            "{message}"
        );
    }

    /// `fin` and `etat` take nothing.
    #[test]
    fn fin_and_etat_take_no_argument(
        name in prop::sample::select(vec!["fin", "etat"]),
        arg in "[0-9a-z]{1,5}",
        cb in callback(),
    ) {
        let message = Request::parse(&format!("{name} {arg}"), cb).unwrap_err();
        prop_assert!(message.contains(&format!("`{name}` takes no argument")), "{message}");
    }
}
