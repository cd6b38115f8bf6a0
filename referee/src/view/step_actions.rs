//! What one callback did, as the timeline shows it: its action requests in order with
//! consecutive refusals of one function with one answer grouped (`20000 ×
//! construire_route 200 3 … 5 9 → HORS_TERRAIN` is one entry, its first and last arguments
//! when they differ, so that a huge callback stays small on the page; past [`ACTIONS_MAX`] entries,
//! refusals are only counted), the cells its actions aimed at (refused ones too, when they
//! are known), and in Phase II the bid and sales that wait for the auction.

use engine::board::{Pos, SIZE};
use engine::{Call, Function};
use serde::ser::{Serialize, SerializeSeq, Serializer};
use std::collections::HashMap;

/// Most entries of a step's actions: refusals past them are counted by function and answer
/// (successful actions, which the game's money bounds, are always listed).
pub const ACTIONS_MAX: usize = 1000;

/// Most target cells listed for one step; the others are counted
/// ([`super::timeline::Step::targets_more`]).
pub const TARGETS_MAX: usize = 500;

/// An action request and its answer; `count` consecutive refusals of the same function with
/// the same answer are one entry, shown with the first one's arguments, then `…` and the
/// last one's when the calls differed (`construire_route 200 3 … 5 9`). Serialised as
/// `[call, code]`, or `[call, code, count]` when `count` is more than 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionView {
    pub call: String,
    pub code: i32,
    pub count: u32,
}

impl Serialize for ActionView {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let grouped = self.count > 1;
        let mut seq = serializer.serialize_seq(Some(if grouped { 3 } else { 2 }))?;
        seq.serialize_element(&self.call)?;
        seq.serialize_element(&self.code)?;
        if grouped {
            seq.serialize_element(&self.count)?;
        }
        seq.end()
    }
}

/// Phase II actions that take effect only when the auction is resolved (rule 12): the
/// seat's bid and the houses it sold, `[x, y, worth]` (what the sale brings).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PendingView {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bid: Option<i32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sales: Vec<[i32; 3]>,
}

/// The actions of the callback being replayed, gathered request by request.
#[derive(Debug, Default)]
pub struct Gathered {
    pub actions: Vec<ActionView>,
    /// The function of the last entry of `actions`, to group refusals, and its first call.
    last: Option<Function>,
    first: String,
    /// `[x, y, code]`: 0 if an action on the cell succeeded, else the last refusal's code.
    pub targets: Vec<[i32; 3]>,
    /// Each target cell's slot in `targets`, `None` past [`TARGETS_MAX`].
    index: HashMap<(i32, i32), Option<usize>>,
    /// Distinct target cells past [`TARGETS_MAX`].
    pub targets_more: u32,
    /// A successful `encherir`'s amount.
    pub bid: Option<i32>,
    /// Cells of the successful `vendre_maison`.
    pub sold: Vec<Pos>,
    /// Refusals past [`ACTIONS_MAX`] entries, and those the record only counts:
    /// `(function, code) -> count`.
    pub overflow: std::collections::BTreeMap<(String, i32), u64>,
}

impl Gathered {
    /// One action request, answered `code`.
    pub fn action(&mut self, call: &Call, code: i32) {
        let refused = code != engine::constants::SUCCES;
        // Once refusals overflow, none joins a listed entry: it would not follow it.
        let grouping = refused && self.overflow.is_empty() && self.last == Some(call.function);
        let full = self.actions.len() >= ACTIONS_MAX;
        match self.actions.last_mut() {
            Some(last) if grouping && last.code == code => {
                last.count += 1;
                // A group of different calls says so: its first call, then the last one's
                // arguments.
                let text = call.to_string();
                if text != self.first {
                    let args = text.split_once(' ').map_or("", |(_, args)| args);
                    last.call = format!("{} … {args}", self.first);
                }
            }
            _ if refused && full => {
                *self
                    .overflow
                    .entry((call.function.name().to_string(), code))
                    .or_default() += 1;
            }
            _ => {
                self.first = call.to_string();
                self.actions.push(ActionView {
                    call: self.first.clone(),
                    code,
                    count: 1,
                });
                self.last = Some(call.function);
            }
        }
        self.target(call, code);
        if !refused {
            match (call.function, call.args()) {
                (Function::Encherir, &[amount]) => self.bid = Some(amount),
                (Function::VendreMaison, &[x, y]) => self.sold.extend(Pos::new(x, y)),
                _ => {}
            }
        }
    }

    /// The cell `call` aims at, if it names one on the map.
    fn target(&mut self, call: &Call, code: i32) {
        let &[x, y] = call.args() else {
            return;
        };
        if !call.function.is_action() || !(0..SIZE as i32).contains(&x) {
            return;
        }
        if !(0..SIZE as i32).contains(&y) {
            return;
        }
        match self.index.get(&(x, y)) {
            Some(&Some(i)) => {
                if self.targets[i][2] != engine::constants::SUCCES {
                    self.targets[i][2] = code;
                }
            }
            Some(None) => {} // past the limit, counted already
            None if self.targets.len() < TARGETS_MAX => {
                self.index.insert((x, y), Some(self.targets.len()));
                self.targets.push([x, y, code]);
            }
            None => {
                self.index.insert((x, y), None);
                self.targets_more += 1;
            }
        }
    }

    /// `n` refusals of `function` answered `code` that the record counts without their
    /// arguments (past the ones a callback keeps): counted with the overflow.
    pub fn counted(&mut self, function: &str, code: i32, n: u64) {
        let total = self
            .overflow
            .entry((function.to_string(), code))
            .or_default();
        *total = total.saturating_add(n);
    }

    /// The refusals past [`ACTIONS_MAX`] entries and those counted, as
    /// `(function, code, count)`.
    pub fn overflow(&self) -> Vec<(String, i32, u64)> {
        self.overflow
            .iter()
            .map(|((function, code), &n)| (function.clone(), *code, n))
            .collect()
    }

    /// The pending Phase II view, the worth of each sold house given by `worth`; `None`
    /// when the seat neither bid nor sold.
    pub fn pending(&self, worth: impl Fn(Pos) -> i32) -> Option<PendingView> {
        let sales: Vec<[i32; 3]> = self
            .sold
            .iter()
            .map(|&p| [i32::from(p.x), i32::from(p.y), worth(p)])
            .collect();
        (self.bid.is_some() || !sales.is_empty()).then_some(PendingView {
            bid: self.bid,
            sales,
        })
    }
}

/// The record's refused actions of a callback (`"construire_maison -9" -> 3`) as
/// `(function, code, count)`, in the record's order; entries that do not parse are skipped
/// (a record is checked when replayed, not here).
pub fn refused_counts(
    refused: &std::collections::BTreeMap<String, u64>,
) -> Vec<(String, i32, u64)> {
    refused
        .iter()
        .filter_map(|(key, &n)| {
            let (function, code) = key.rsplit_once(' ')?;
            Some((function.to_string(), code.parse().ok()?, n))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::constants::{CASE_OCCUPEE, HORS_TERRAIN, NON_CONNEXE, SUCCES};

    fn call(text: &str) -> Call {
        text.parse().unwrap()
    }

    #[test]
    fn consecutive_identical_refusals_make_one_entry() {
        let mut g = Gathered::default();
        for _ in 0..20000 {
            g.action(&call("construire_route 200 3"), HORS_TERRAIN);
        }
        g.action(&call("construire_route 200 4"), NON_CONNEXE);
        g.action(&call("construire_maison 5 5"), NON_CONNEXE);
        g.action(&call("construire_maison 5 5"), NON_CONNEXE);
        g.action(&call("construire_route 4 5"), SUCCES);
        g.action(&call("construire_route 4 6"), SUCCES);
        let shown: Vec<(&str, i32, u32)> = g
            .actions
            .iter()
            .map(|a| (a.call.as_str(), a.code, a.count))
            .collect();
        assert_eq!(
            shown,
            [
                ("construire_route 200 3", HORS_TERRAIN, 20000),
                ("construire_route 200 4", NON_CONNEXE, 1),
                ("construire_maison 5 5", NON_CONNEXE, 2),
                ("construire_route 4 5", SUCCES, 1),
                ("construire_route 4 6", SUCCES, 1),
            ]
        );
        assert_eq!(
            serde_json::to_string(&g.actions[..3]).unwrap(),
            r#"[["construire_route 200 3",-12,20000],["construire_route 200 4",-8],["construire_maison 5 5",-8,2]]"#
        );
    }

    #[test]
    fn a_group_of_different_calls_shows_its_first_and_last_arguments() {
        let mut g = Gathered::default();
        for x in 0..20000 {
            g.action(
                &call(&format!("construire_route {} 3", 200 + x)),
                HORS_TERRAIN,
            );
        }
        g.action(&call("construire_maison 5 5"), NON_CONNEXE);
        g.action(&call("construire_maison 5 5"), NON_CONNEXE);
        let shown: Vec<(&str, u32)> = g
            .actions
            .iter()
            .map(|a| (a.call.as_str(), a.count))
            .collect();
        assert_eq!(
            shown,
            [
                ("construire_route 200 3 … 20199 3", 20000),
                ("construire_maison 5 5", 2),
            ]
        );
    }

    #[test]
    fn refusals_past_the_limit_are_counted_successes_still_listed() {
        let mut g = Gathered::default();
        for i in 0..ACTIONS_MAX + 5 {
            // Alternating functions: no two consecutive refusals group.
            let text = if i % 2 == 0 {
                "construire_route 200 3"
            } else {
                "reserver_case 200 3"
            };
            g.action(&call(text), HORS_TERRAIN);
        }
        // The last listed entry is a reserver_case: one refused now does not join it, as
        // refusals overflowed in between.
        g.action(&call("reserver_case 200 3"), HORS_TERRAIN);
        g.action(&call("construire_route 4 5"), SUCCES);
        g.action(&call("construire_maison 5 5"), NON_CONNEXE);
        assert_eq!(g.actions.len(), ACTIONS_MAX + 1);
        assert_eq!(g.actions[ACTIONS_MAX].call, "construire_route 4 5");
        assert_eq!(g.actions[ACTIONS_MAX - 1].count, 1);
        assert_eq!(
            g.overflow(),
            vec![
                ("construire_maison".to_string(), NON_CONNEXE, 1),
                ("construire_route".to_string(), HORS_TERRAIN, 3),
                ("reserver_case".to_string(), HORS_TERRAIN, 3),
            ]
        );
        let listed: u32 = g.actions.iter().map(|a| a.count).sum();
        let counted: u64 = g.overflow().iter().map(|o| o.2).sum();
        assert_eq!(u64::from(listed) + counted, ACTIONS_MAX as u64 + 8);
    }

    #[test]
    fn targets_are_the_cells_on_the_map_a_success_wins() {
        let mut g = Gathered::default();
        g.action(&call("construire_route 200 3"), HORS_TERRAIN);
        g.action(&call("construire_route -1 3"), HORS_TERRAIN);
        g.action(&call("construire_maison 3 -1"), HORS_TERRAIN);
        g.action(&call("construire_maison 7 8"), CASE_OCCUPEE);
        g.action(&call("construire_maison 7 8"), SUCCES);
        g.action(&call("reserver_case 7 8"), CASE_OCCUPEE);
        g.action(&call("detruire_maison 0 99"), NON_CONNEXE);
        g.action(&call("detruire_maison 0 99"), CASE_OCCUPEE);
        g.action(&call("encherir 99"), SUCCES);
        assert_eq!(g.targets, vec![[7, 8, SUCCES], [0, 99, CASE_OCCUPEE]]);
        assert_eq!(g.targets_more, 0);
    }

    #[test]
    fn targets_past_the_limit_are_counted_once_each() {
        let mut g = Gathered::default();
        for round in 0..2 {
            for i in 0..TARGETS_MAX + 7 {
                let (x, y) = (i % 100, i / 100);
                g.action(&call(&format!("construire_route {x} {y}")), -8 - round);
            }
        }
        assert_eq!(g.targets.len(), TARGETS_MAX);
        assert_eq!(g.targets_more, 7);
        assert_eq!(g.targets[0], [0, 0, -9], "the last refusal's code");
    }

    #[test]
    fn pending_holds_the_bid_and_the_sales_with_their_worth() {
        let mut g = Gathered::default();
        assert_eq!(g.pending(|_| 1), None);
        g.action(&call("encherir 50"), engine::constants::FINANCES_DEPASSEES);
        g.action(&call("vendre_maison 4 4"), engine::constants::PAS_DE_MAISON);
        assert_eq!(g.pending(|_| 1), None, "refused actions wait for nothing");
        g.action(&call("vendre_maison 4 5"), SUCCES);
        assert_eq!(
            g.pending(|_| 2),
            Some(PendingView {
                bid: None,
                sales: vec![[4, 5, 2]],
            }),
            "a sale alone waits"
        );
        let mut bid_only = Gathered::default();
        bid_only.action(&call("encherir 0"), SUCCES);
        assert_eq!(
            bid_only.pending(|_| 1),
            Some(PendingView {
                bid: Some(0),
                sales: vec![],
            }),
            "a bid alone (of 0 too) waits"
        );
        g.action(&call("encherir 3"), SUCCES);
        let worth = |p: Pos| i32::from(p.y) - 2;
        assert_eq!(
            g.pending(worth),
            Some(PendingView {
                bid: Some(3),
                sales: vec![[4, 5, 3]],
            })
        );
    }

    #[test]
    fn refused_counts_read_the_record_s_keys() {
        let refused = std::collections::BTreeMap::from([
            ("construire_maison -9".to_string(), 3),
            ("encherir -4".to_string(), 1),
            ("garbled".to_string(), 1),
        ]);
        assert_eq!(
            refused_counts(&refused),
            vec![
                ("construire_maison".to_string(), -9, 3),
                ("encherir".to_string(), -4, 1),
            ]
        );
    }
}
