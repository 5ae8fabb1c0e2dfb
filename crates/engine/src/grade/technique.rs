//! The techniques of the logic solvers, Kakuro's and Sudoku's, with their levels, and the
//! count of their uses that a grade reports.

use super::Difficulty;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// One technique of the logic solver (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Technique {
    /// A placed digit leaves the rest of its run.
    NakedSingle,
    /// A run's only live combination fixes its open cells' digits.
    UniqueCombination,
    /// A cell keeps only digits of its runs' live combinations.
    Crossing,
    /// A needed digit only one cell of the run can hold is placed there.
    HiddenSingle,
    /// Killer: a cage's cells keep only digits of the combinations its sum has left.
    CageCombination,
    /// Killer: a digit every combination of a cage needs, with one place in the cage.
    CageHiddenSingle,
    /// k cells with k digits between them keep those digits out of the rest of the run.
    NakedSubset,
    /// k needed digits that only k cells can hold confine those cells to them.
    HiddenSubset,
    /// Digits the other cells cannot complete to the clue are removed.
    Bounds,
    /// Sudoku: a digit confined to one line within a box, or to one box within a line,
    /// leaves the rest of that line or box (pointing and claiming).
    LockedCandidates,
    /// Sudoku: two cells where a box crosses a line holding two digits between them, which
    /// leave both houses in one step (HoDoKu's Locked Pair, tried before pointing).
    LockedPair,
    /// Sudoku: three such cells holding three digits (HoDoKu's Locked Triple).
    LockedTriple,
    /// Killer: a digit a cage needs, whose places in it lie in one house, leaves the rest
    /// of that house.
    CagePointing,
    /// Killer: the cells of a house outside the cages wholly inside it add up to what
    /// those cages leave of the house's sum (the rule of 45).
    Innies,
    /// Killer: the cells outside a house of the cages that cover it add up to what those
    /// cages hold beyond the house's sum.
    Outies,
    /// Digits without a distinct assignment of a combination over the run are removed.
    RunConsistency,
    /// Sudoku: a digit whose places in k rows lie in k columns leaves those columns'
    /// other cells, and the same with rows and columns swapped (X-wing, swordfish).
    Fish,
    /// Killer: digits without a distinct assignment of a combination over the cage.
    CageConsistency,
    /// Sudoku: four cells of a unit holding four digits between them (hard, as in HoDoKu).
    NakedQuad,
    /// Sudoku: four digits of a unit that only four of its cells can hold.
    HiddenQuad,
    /// Sudoku: two strong links on parallel lines, joined across: one far end holds the
    /// digit.
    Skyscraper,
    /// Sudoku: a row's and a column's strong links joined in a box.
    TwoStringKite,
    /// Sudoku: two strong links joined any other way (through a box).
    TurbotFish,
    /// Sudoku: a box whose places of a digit lie on one row and one column, with a strong
    /// link outside it.
    EmptyRectangle,
    /// Sudoku: two cells `{x,y}` joined by a strong link on `x`: one of them is `y`.
    WWing,
    /// Sudoku: a pivot `{x,y}` and pincers `{x,z}`, `{y,z}`: one pincer is `z`.
    XyWing,
    /// Sudoku: a pivot `{x,y,z}` and pincers `{x,z}`, `{y,z}`: one of the three is `z`.
    XyzWing,
    /// Sudoku: an X-wing with fins in one box (finned and sashimi).
    FinnedXWing,
    /// Sudoku: a swordfish or jellyfish with fins in one box (finned and sashimi).
    FinnedFish,
    /// Sudoku: a digit's strong links colour its places in two colours, one of them true.
    SimpleColors,
    /// Sudoku: two clusters of a digit's conjugate pairs, one of whose colours sees both
    /// colours of the other: it is false (HoDoKu's Multi-Colors 2).
    MultiColors2,
    /// Sudoku: two clusters whose colours `a` and `b` see each other: the other colours are
    /// not both false, and a cell that sees both loses the digit (Multi-Colors 1).
    MultiColors1,
    /// Sudoku: an XY-Chain whose cells all hold the same two digits.
    RemotePair,
    /// Sudoku, unique solution assumed: every open cell but one holds two digits and each
    /// digit two places per house; the one cell of three takes the digit that would
    /// otherwise make a third (Bivalue Universal Grave + 1).
    BugPlusOne,
    /// Sudoku, unique solution assumed: four cells of two rows, two columns and two boxes
    /// holding `{a,b}`, three of them nothing else: the fourth is neither (Uniqueness
    /// Test 1).
    UniqueRectangle1,
    /// Unique rectangle type 2: the cells with more hold one more digit `z`, in one line:
    /// one of them is `z`.
    UniqueRectangle2,
    /// Unique rectangle type 3: the extra digits of two cells make a naked subset with
    /// other cells of a house they share.
    UniqueRectangle3,
    /// Unique rectangle type 4: one of `a`, `b` is tied to the two cells with more, which
    /// lose the other.
    UniqueRectangle4,
    /// Unique rectangle type 5: the cells with more (diagonal, or three) hold one more digit
    /// `z`: one of them is `z`.
    UniqueRectangle5,
    /// Unique rectangle type 6: the cells with more are diagonal and `a` lies in the
    /// rectangle's rows and columns only at its corners: those two lose `a`.
    UniqueRectangle6,
    /// Sudoku, unique solution assumed: a rectangle with a corner `{a,b}` whose opposite
    /// row and column hold `a` only at its corners: the opposite corner is not `b`.
    HiddenRectangle,
    /// Sudoku, unique solution assumed: a rectangle of digits the logic placed (not givens)
    /// that one open cell would complete: that cell loses the digit (type 1).
    AvoidableRectangle1,
    /// Avoidable rectangle type 2: two placed and two open cells `{b,z}`, `{a,z}`: one of
    /// them is `z`.
    AvoidableRectangle2,
    /// Sudoku: a chain over one digit's places: one of its ends holds it.
    XChain,
    /// Sudoku: a chain through cells of two digits.
    XyChain,
    /// Sudoku: an alternating inference chain mixing both kinds of link.
    Aic,
    /// Sudoku: a chain that closes on its start in alternation (HoDoKu's Continuous Nice
    /// Loop): each of its weak links has one true end.
    ContinuousNiceLoop,
    /// Sudoku: a continuous nice loop whose nodes may be groups (HoDoKu's Grouped
    /// Continuous Nice Loop).
    GroupedContinuousNiceLoop,
    /// Sudoku: an AIC whose nodes may be groups, a digit's places where a box crosses a
    /// line (HoDoKu's grouped nice loops and grouped AICs).
    GroupedAic,
    /// Sudoku: the cells of a box and line crossing, with two more digits than cells, share
    /// them with a set of the line and a set of the box (Sue de Coq).
    SueDeCoq,
    /// Sudoku: two almost locked sets joined by a restricted common digit: one of them holds
    /// a digit common to both (ALS-XZ; doubly linked, each is locked).
    AlsXz,
    /// Sudoku: two almost locked sets each joined to a third by its own restricted common
    /// digit: one of the two holds a digit common to both (ALS-XY-Wing).
    AlsXyWing,
    /// Kakuro: the clues of a band of rows (columns) against those of its crossing runs
    /// leave a known sum to the few cells sticking in or out (the rule of 45 of regions).
    RegionSum,
    /// Sudoku: a candidate whose assumption leads, along the grid's links, to a
    /// contradiction is false (HoDoKu's Forcing Chain Contradiction).
    ForcingChainContradiction,
    /// Sudoku: a conclusion each of a set of premises leads to, one of which holds (a
    /// candidate true or false, a cell's digits, a digit's places in a house), holds.
    ForcingChainVerity,
    /// Sudoku: a candidate whose assumption leads to a contradiction along the grid's
    /// links and the singles it makes is false (HoDoKu's Forcing Net Contradiction).
    ForcingNetContradiction,
    /// Sudoku: a conclusion each of a set of premises leads to along links and singles,
    /// one of which holds, holds (HoDoKu's Forcing Net Verity).
    ForcingNetVerity,
    /// A digit whose assumption leads to a contradiction is removed.
    Trial,
}

impl Technique {
    /// Every technique, level by level, easiest level first (the Killer's cage techniques
    /// last in their levels).
    pub const ALL: [Technique; 58] = [
        Technique::NakedSingle,
        Technique::UniqueCombination,
        Technique::Crossing,
        Technique::HiddenSingle,
        Technique::CageCombination,
        Technique::CageHiddenSingle,
        Technique::NakedSubset,
        Technique::HiddenSubset,
        Technique::Bounds,
        Technique::LockedCandidates,
        Technique::LockedPair,
        Technique::LockedTriple,
        Technique::CagePointing,
        Technique::Innies,
        Technique::Outies,
        Technique::RunConsistency,
        Technique::Fish,
        Technique::CageConsistency,
        Technique::NakedQuad,
        Technique::HiddenQuad,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::TurbotFish,
        Technique::EmptyRectangle,
        Technique::WWing,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::FinnedXWing,
        Technique::FinnedFish,
        Technique::SimpleColors,
        Technique::MultiColors2,
        Technique::MultiColors1,
        Technique::RemotePair,
        Technique::BugPlusOne,
        Technique::UniqueRectangle1,
        Technique::UniqueRectangle2,
        Technique::UniqueRectangle3,
        Technique::UniqueRectangle4,
        Technique::UniqueRectangle5,
        Technique::UniqueRectangle6,
        Technique::HiddenRectangle,
        Technique::AvoidableRectangle1,
        Technique::AvoidableRectangle2,
        Technique::XChain,
        Technique::XyChain,
        Technique::Aic,
        Technique::ContinuousNiceLoop,
        Technique::GroupedAic,
        Technique::GroupedContinuousNiceLoop,
        Technique::SueDeCoq,
        Technique::AlsXz,
        Technique::AlsXyWing,
        Technique::RegionSum,
        Technique::ForcingChainContradiction,
        Technique::ForcingChainVerity,
        Technique::ForcingNetContradiction,
        Technique::ForcingNetVerity,
        Technique::Trial,
    ];

    /// The technique's name, as in the JSON `techniques` object.
    pub fn name(self) -> &'static str {
        match self {
            Technique::UniqueCombination => "unique_combination",
            Technique::Crossing => "crossing",
            Technique::NakedSingle => "naked_single",
            Technique::HiddenSingle => "hidden_single",
            Technique::NakedSubset => "naked_subset",
            Technique::HiddenSubset => "hidden_subset",
            Technique::Bounds => "bounds",
            Technique::RunConsistency => "run_consistency",
            Technique::LockedCandidates => "locked_candidates",
            Technique::LockedPair => "locked_pair",
            Technique::LockedTriple => "locked_triple",
            Technique::Fish => "fish",
            Technique::Trial => "trial",
            Technique::CageCombination => "cage_combination",
            Technique::CageHiddenSingle => "cage_hidden_single",
            Technique::CagePointing => "cage_pointing",
            Technique::Innies => "innies",
            Technique::Outies => "outies",
            Technique::CageConsistency => "cage_consistency",
            Technique::NakedQuad => "naked_quad",
            Technique::HiddenQuad => "hidden_quad",
            Technique::Skyscraper => "skyscraper",
            Technique::TwoStringKite => "two_string_kite",
            Technique::TurbotFish => "turbot_fish",
            Technique::EmptyRectangle => "empty_rectangle",
            Technique::WWing => "w_wing",
            Technique::XyWing => "xy_wing",
            Technique::XyzWing => "xyz_wing",
            Technique::FinnedXWing => "finned_x_wing",
            Technique::FinnedFish => "finned_fish",
            Technique::SimpleColors => "simple_colors",
            Technique::MultiColors1 => "multi_colors_1",
            Technique::MultiColors2 => "multi_colors_2",
            Technique::ForcingChainContradiction => "forcing_chain_contradiction",
            Technique::ForcingChainVerity => "forcing_chain_verity",
            Technique::ForcingNetContradiction => "forcing_net_contradiction",
            Technique::ForcingNetVerity => "forcing_net_verity",
            Technique::RemotePair => "remote_pair",
            Technique::XChain => "x_chain",
            Technique::XyChain => "xy_chain",
            Technique::Aic => "aic",
            Technique::ContinuousNiceLoop => "continuous_nice_loop",
            Technique::GroupedContinuousNiceLoop => "grouped_continuous_nice_loop",
            Technique::BugPlusOne => "bug_plus_1",
            Technique::UniqueRectangle1 => "unique_rectangle_1",
            Technique::UniqueRectangle2 => "unique_rectangle_2",
            Technique::UniqueRectangle3 => "unique_rectangle_3",
            Technique::UniqueRectangle4 => "unique_rectangle_4",
            Technique::UniqueRectangle5 => "unique_rectangle_5",
            Technique::UniqueRectangle6 => "unique_rectangle_6",
            Technique::HiddenRectangle => "hidden_rectangle",
            Technique::AvoidableRectangle1 => "avoidable_rectangle_1",
            Technique::AvoidableRectangle2 => "avoidable_rectangle_2",
            Technique::GroupedAic => "grouped_aic",
            Technique::SueDeCoq => "sue_de_coq",
            Technique::AlsXz => "als_xz",
            Technique::AlsXyWing => "als_xy_wing",
            Technique::RegionSum => "region_sum",
        }
    }

    /// The level the technique belongs to.
    pub fn level(self) -> Difficulty {
        match self {
            Technique::UniqueCombination
            | Technique::Crossing
            | Technique::NakedSingle
            | Technique::HiddenSingle
            | Technique::CageCombination
            | Technique::CageHiddenSingle => Difficulty::Easy,
            Technique::NakedSubset
            | Technique::HiddenSubset
            | Technique::Bounds
            | Technique::LockedCandidates
            | Technique::LockedPair
            | Technique::LockedTriple
            | Technique::CagePointing
            | Technique::Innies
            | Technique::Outies => Difficulty::Medium,
            Technique::RunConsistency
            | Technique::Fish
            | Technique::CageConsistency
            | Technique::NakedQuad
            | Technique::HiddenQuad
            | Technique::Skyscraper
            | Technique::TwoStringKite
            | Technique::TurbotFish
            | Technique::EmptyRectangle
            | Technique::WWing
            | Technique::XyWing
            | Technique::XyzWing
            | Technique::FinnedXWing
            | Technique::FinnedFish
            | Technique::SimpleColors
            | Technique::MultiColors1
            | Technique::MultiColors2
            | Technique::RemotePair
            | Technique::XChain
            | Technique::XyChain
            | Technique::Aic
            | Technique::ContinuousNiceLoop
            | Technique::GroupedContinuousNiceLoop
            | Technique::BugPlusOne
            | Technique::UniqueRectangle1
            | Technique::UniqueRectangle2
            | Technique::UniqueRectangle3
            | Technique::UniqueRectangle4
            | Technique::UniqueRectangle5
            | Technique::UniqueRectangle6
            | Technique::HiddenRectangle
            | Technique::AvoidableRectangle1
            | Technique::AvoidableRectangle2
            | Technique::GroupedAic
            | Technique::SueDeCoq
            | Technique::AlsXz
            | Technique::AlsXyWing
            | Technique::RegionSum => Difficulty::Hard,
            Technique::Trial
            | Technique::ForcingChainContradiction
            | Technique::ForcingChainVerity
            | Technique::ForcingNetContradiction
            | Technique::ForcingNetVerity => Difficulty::Expert,
        }
    }

    /// The level the technique belongs to in a Sudoku's (or Killer's) logic, on HoDoKu's
    /// scale: finned and sashimi swordfish and jellyfish, Sue de Coq, the chains (a remote
    /// pair aside) and the almost locked sets are unfair, forcing chains and trial extreme.
    pub fn sudoku_level(self) -> Difficulty {
        match self {
            Technique::FinnedFish
            | Technique::XChain
            | Technique::XyChain
            | Technique::Aic
            | Technique::ContinuousNiceLoop
            | Technique::GroupedContinuousNiceLoop
            | Technique::GroupedAic
            | Technique::SueDeCoq
            | Technique::AlsXz
            | Technique::AlsXyWing => Difficulty::Unfair,
            Technique::Trial
            | Technique::ForcingChainContradiction
            | Technique::ForcingChainVerity
            | Technique::ForcingNetContradiction
            | Technique::ForcingNetVerity => Difficulty::Extreme,
            other => other.level(),
        }
    }

    /// True for the techniques that hold only when the puzzle has one solution: the grader
    /// uses them only on a puzzle proved to have one.
    pub fn assumes_unique(self) -> bool {
        matches!(
            self,
            Technique::BugPlusOne
                | Technique::UniqueRectangle1
                | Technique::UniqueRectangle2
                | Technique::UniqueRectangle3
                | Technique::UniqueRectangle4
                | Technique::UniqueRectangle5
                | Technique::UniqueRectangle6
                | Technique::HiddenRectangle
                | Technique::AvoidableRectangle1
                | Technique::AvoidableRectangle2
        )
    }

    /// Position in [`Technique::ALL`] (the declaration order).
    pub(super) fn index(self) -> usize {
        self as usize
    }
}

/// How often each technique made progress. Serialises as a JSON object from technique
/// name to count, holding only the techniques used, in the order of [`Technique::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Uses {
    /// Counts in the order of [`Technique::ALL`].
    counts: [u32; Technique::ALL.len()],
}

impl Default for Uses {
    fn default() -> Uses {
        Uses { counts: [0; Technique::ALL.len()] }
    }
}

impl Uses {
    /// How often `technique` made progress.
    pub fn get(&self, technique: Technique) -> u32 {
        self.counts[technique.index()]
    }

    /// The techniques used, in the order of [`Technique::ALL`], with their counts.
    pub fn iter(&self) -> impl Iterator<Item = (Technique, u32)> + '_ {
        Technique::ALL.into_iter().map(|t| (t, self.get(t))).filter(|&(_, n)| n > 0)
    }

    /// True when no technique made progress.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&n| n == 0)
    }

    /// Counts one more use of `technique`.
    pub(super) fn add(&mut self, technique: Technique) {
        let count = &mut self.counts[technique.index()];
        *count = count.saturating_add(1);
    }
}

impl Serialize for Uses {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.iter().count()))?;
        for (technique, count) in self.iter() {
            map.serialize_entry(technique.name(), &count)?;
        }
        map.end()
    }
}
