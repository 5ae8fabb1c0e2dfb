//! Variable and value orders. They only suggest the next decision; the search applies it.

use super::options::{ValOrder, VarOrder};
use crate::model::Domain;

/// The unfixed variable `order` picks, or `None` when every variable is fixed.
pub fn select_var(order: VarOrder, domains: &[Domain]) -> Option<usize> {
    match order {
        VarOrder::InputOrder => domains.iter().position(|d| !d.is_fixed()),
        VarOrder::FirstFail => {
            // Smallest domain; ties go to the earlier variable. A domain of two is as small
            // as an unfixed domain gets, so the scan stops there.
            let mut best: Option<(u32, usize)> = None;
            for (v, d) in domains.iter().enumerate() {
                let len = d.len();
                if len > 1 && best.is_none_or(|(b, _)| len < b) {
                    best = Some((len, v));
                    if len == 2 {
                        break;
                    }
                }
            }
            best.map(|(_, v)| v)
        }
        VarOrder::Smallest => {
            let mut best: Option<(u32, usize)> = None;
            for (v, d) in domains.iter().enumerate() {
                if !d.is_fixed()
                    && let Some(min) = d.min()
                    && best.is_none_or(|(b, _)| min < b)
                {
                    best = Some((min, v));
                }
            }
            best.map(|(_, v)| v)
        }
    }
}

/// The value of `remaining` to try next.
#[inline]
pub fn select_value(order: ValOrder, remaining: Domain) -> Option<u32> {
    match order {
        ValOrder::Min => remaining.min(),
        ValOrder::Max => remaining.max(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_order_picks_its_variable() {
        let domains =
            [Domain::single(1), Domain::range(2, 9), Domain::range(4, 6), Domain::range(1, 3)];
        assert_eq!(select_var(VarOrder::InputOrder, &domains), Some(1));
        assert_eq!(select_var(VarOrder::FirstFail, &domains), Some(2));
        assert_eq!(select_var(VarOrder::Smallest, &domains), Some(3));
        assert_eq!(select_var(VarOrder::FirstFail, &[Domain::single(3)]), None);
    }

    #[test]
    fn value_orders_take_either_end() {
        let d = Domain::range(3, 7);
        assert_eq!(select_value(ValOrder::Min, d), Some(3));
        assert_eq!(select_value(ValOrder::Max, d), Some(7));
    }
}
