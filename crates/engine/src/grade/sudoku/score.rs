//! HoDoKu's score, which raises a 9x9 Sudoku's grade past its hardest technique's level
//! when the path is long: each step scores its technique's points (`core/scoring.py` of
//! hodoku-py, HoDoKu 2.2's defaults), and while the sum exceeds the level's most (easy
//! 800, medium 1000, hard 1600, unfair 1800) the grade goes one level up. The grader's
//! families score by their members' sizes (`step_points`), a finned fish as a finned
//! swordfish; trial as a forcing net. HoDoKu grades 9x9 grids
//! only; larger ones keep their hardest technique's level.

use crate::grade::{Difficulty, Technique};

/// HoDoKu's points for one step of `technique`.
pub(super) fn points(technique: Technique) -> u32 {
    match technique {
        Technique::NakedSingle => 4,
        Technique::HiddenSingle => 14,
        Technique::LockedPair => 40,
        Technique::LockedTriple => 60,
        Technique::LockedCandidates => 50,
        Technique::NakedSubset => 60,
        Technique::HiddenSubset => 70,
        Technique::NakedQuad => 120,
        Technique::HiddenQuad => 150,
        Technique::Fish => 140,
        Technique::Skyscraper => 130,
        Technique::TwoStringKite | Technique::WWing | Technique::SimpleColors => 150,
        Technique::MultiColors1 | Technique::MultiColors2 => 200,
        Technique::TurbotFish | Technique::EmptyRectangle => 120,
        Technique::XyWing => 160,
        Technique::XyzWing => 180,
        Technique::FinnedXWing => 130,
        Technique::FinnedFish => 200,
        Technique::RemotePair => 110,
        Technique::XChain | Technique::XyChain => 260,
        Technique::Aic | Technique::ContinuousNiceLoop => 280,
        Technique::BugPlusOne
        | Technique::UniqueRectangle1
        | Technique::UniqueRectangle2
        | Technique::UniqueRectangle3
        | Technique::UniqueRectangle4
        | Technique::UniqueRectangle5
        | Technique::UniqueRectangle6
        | Technique::HiddenRectangle
        | Technique::AvoidableRectangle1
        | Technique::AvoidableRectangle2 => 100,
        Technique::SueDeCoq => 250,
        Technique::AlsXz | Technique::GroupedAic | Technique::GroupedContinuousNiceLoop => 300,
        Technique::AlsXyWing => 320,
        Technique::ForcingChainContradiction | Technique::ForcingChainVerity => 500,
        Technique::ForcingNetContradiction | Technique::ForcingNetVerity => 700,
        // Trial follows the levels up to hard from its assumption, as a forcing net does.
        Technique::Trial => 700,
        // Kakuro's and the Killer's own techniques: HoDoKu has none of them.
        _ => 0,
    }
}

/// HoDoKu's points for a step of `technique` from `cells` cells on `units` houses: a
/// family's larger members score more (a naked or hidden triple 80 and 100 against a
/// pair's 60 and 70; a swordfish 150 and a jellyfish 160 against an X-wing's 140).
pub(super) fn step_points(technique: Technique, cells: usize, units: usize) -> u32 {
    match (technique, cells, units) {
        (Technique::NakedSubset, 3, _) => 80,
        (Technique::HiddenSubset, 3, _) => 100,
        (Technique::Fish, _, 6) => 150,
        (Technique::Fish, _, 8) => 160,
        _ => points(technique),
    }
}

/// `level` raised while `score` exceeds its most, as HoDoKu raises it.
pub(super) fn bumped(mut level: Difficulty, score: u32) -> Difficulty {
    loop {
        let (most, next) = match level {
            Difficulty::Easy => (800, Difficulty::Medium),
            Difficulty::Medium => (1000, Difficulty::Hard),
            Difficulty::Hard => (1600, Difficulty::Unfair),
            Difficulty::Unfair => (1800, Difficulty::Extreme),
            _ => return level,
        };
        if score <= most {
            return level;
        }
        level = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_path_goes_up_a_level_per_most_it_exceeds() {
        assert_eq!(bumped(Difficulty::Easy, 800), Difficulty::Easy);
        assert_eq!(bumped(Difficulty::Easy, 801), Difficulty::Medium);
        assert_eq!(bumped(Difficulty::Medium, 1700), Difficulty::Unfair);
        assert_eq!(bumped(Difficulty::Hard, 5000), Difficulty::Extreme);
        assert_eq!(bumped(Difficulty::Extreme, 0), Difficulty::Extreme);
    }
}
