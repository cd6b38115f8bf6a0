//! Seeded draws, defined here once and for all: a seed always gives the same stream and
//! the same choices, whatever version of any dependency is built in.
//!
//! The stream is PCG-64 (LCG 128 / XSL RR 64, O'Neill 2014), seeded from a `u64` by
//! filling its 256-bit seed with PCG-32 outputs; the sampling of a range is Lemire's
//! widening multiply with rejection. Both reproduce bit for bit what `rand` 0.8 with
//! `rand_pcg` 0.3 drew (`Pcg64::seed_from_u64`, `gen_range`, `choose`), which every seed
//! of this project used before: the golden files of `engine/tests/golden` and
//! `amazons/tests/golden`, and this crate's tests against those crates, show it.
//!
//! ```
//! let mut stream = draw::Stream::new(2009);
//! let first = stream.below_u8(3);
//! assert!(first < 3);
//! assert_eq!(draw::Stream::new(2009).below_u8(3), first);
//! ```

/// PCG-64's multiplier.
const MULTIPLIER: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;

/// A stream of draws from a seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stream {
    state: u128,
    increment: u128,
}

impl Stream {
    /// The stream of `seed`.
    pub fn new(seed: u64) -> Stream {
        // The 32 bytes of PCG-64's seed, four bytes at a time from PCG-32 (little-endian):
        // the low and high halves of the state, then of the increment.
        let mut pcg32 = seed;
        let mut word = || {
            pcg32 = pcg32
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(11_634_580_027_462_260_723);
            let xorshifted = (((pcg32 >> 18) ^ pcg32) >> 27) as u32;
            u128::from(xorshifted.rotate_right((pcg32 >> 59) as u32))
        };
        let mut quad = || word() | (word() << 32) | (word() << 64) | (word() << 96);
        let state = quad();
        let increment = quad() | 1;
        let mut stream = Stream { state, increment };
        stream.state = stream.state.wrapping_add(increment);
        stream.step();
        stream
    }

    fn step(&mut self) {
        self.state = self
            .state
            .wrapping_mul(MULTIPLIER)
            .wrapping_add(self.increment);
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.step();
        let rotation = (self.state >> 122) as u32;
        (((self.state >> 64) as u64) ^ (self.state as u64)).rotate_right(rotation)
    }

    /// The next 32 bits (the low half of the next 64).
    pub fn next_u32(&mut self) -> u32 {
        self.next_u64() as u32
    }

    /// A number in `0..n`, `n` at least 1, drawn from 32-bit words with an exact rejection
    /// zone (as a range of `u8` or `u16` was).
    pub fn below_u8(&mut self, n: u8) -> u8 {
        assert!(n > 0, "below_u8(0): an empty range");
        let range = u32::from(n);
        let zone = u32::MAX - (u32::MAX - range + 1) % range;
        loop {
            let wide = u64::from(self.next_u32()) * u64::from(range);
            if wide as u32 <= zone {
                return (wide >> 32) as u8;
            }
        }
    }

    /// A number in `0..n`, `n` at least 1, drawn from 32-bit words.
    pub fn below_u32(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below_u32(0): an empty range");
        let zone = (n << n.leading_zeros()).wrapping_sub(1);
        loop {
            let wide = u64::from(self.next_u32()) * u64::from(n);
            if wide as u32 <= zone {
                return (wide >> 32) as u32;
            }
        }
    }

    /// A number in `0..n`, `n` at least 1, drawn from 64-bit words.
    pub fn below_u64(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below_u64(0): an empty range");
        let zone = (n << n.leading_zeros()).wrapping_sub(1);
        loop {
            let wide = u128::from(self.next_u64()) * u128::from(n);
            if wide as u64 <= zone {
                return (wide >> 64) as u64;
            }
        }
    }

    /// A number in `0..n` for a length or an index (`usize`), drawn from 64-bit words.
    pub fn below_usize(&mut self, n: usize) -> usize {
        self.below_u64(n as u64) as usize
    }

    /// An index into a slice of `len` elements, `len` at least 1: from 32-bit words when
    /// `len` fits in 32 bits (as a choice among a slice's elements was), else 64.
    pub fn index(&mut self, len: usize) -> usize {
        match u32::try_from(len) {
            Ok(len) => self.below_u32(len) as usize,
            Err(_) => self.below_usize(len),
        }
    }

    /// One element of `items`, `None` when it is empty.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        (!items.is_empty()).then(|| &items[self.index(items.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::seq::SliceRandom;
    use rand::{Rng, RngCore, SeedableRng};
    use rand_pcg::Pcg64;

    proptest! {
        /// The stream and every sampling give what `rand` 0.8 and `rand_pcg` 0.3 gave.
        #[test]
        fn draws_are_those_of_rand_0_8(seed: u64, n8 in 1u8.., n32 in 1u32.., n64 in 1u64.., len in 1usize..5000) {
            let (mut ours, mut theirs) = (Stream::new(seed), Pcg64::seed_from_u64(seed));
            prop_assert_eq!(ours.next_u64(), theirs.next_u64());
            prop_assert_eq!(ours.next_u32(), theirs.next_u32());
            for _ in 0..8 {
                prop_assert_eq!(ours.below_u8(n8), theirs.gen_range(0..n8));
                prop_assert_eq!(ours.below_u32(n32), theirs.gen_range(0..n32));
                prop_assert_eq!(ours.below_u64(n64), theirs.gen_range(0..n64));
                prop_assert_eq!(ours.below_usize(len), theirs.gen_range(0..len));
                prop_assert_eq!(ours.below_u32(n32), theirs.gen_range(0..=n32 - 1));
                let items: Vec<usize> = (0..len).collect();
                prop_assert_eq!(ours.choose(&items), items.choose(&mut theirs));
            }
        }
    }

    #[test]
    fn small_ranges_reject_as_rand_did() {
        // Ranges of 3 and 5 reject some words: many draws cross a rejection.
        let (mut ours, mut theirs) = (Stream::new(7), Pcg64::seed_from_u64(7));
        for _ in 0..100_000 {
            assert_eq!(ours.below_u8(3), theirs.gen_range(0..3u8));
            assert_eq!(ours.below_u32(5), theirs.gen_range(0..5u32));
        }
        assert_eq!(ours.choose::<u8>(&[]), None);
    }
}
