//! Axes: the range an axis covers, where its ticks go, and their labels in the unit of the values
//! (`20 µs`, `5 ms`, `2 s`; `500`, `10k`, `2M`; `0.5×`, `4×`; `50%`), so that no tick reads `1e-5`
//! beside `0.001`. Rank counts go on a base-2 log axis with a tick at every count run, measured
//! values on a base-10 log axis with ticks at 1, 2 and 5 times the powers of ten (fewer when the
//! range is wide), stacked bars on a linear axis from zero.

/// What the values of an axis are, for their labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Seconds, labelled in µs, ms or s.
    Seconds,
    /// A count, labelled with k and M.
    Count,
    /// A ratio, labelled `2×`.
    Ratio,
    /// A fraction, labelled as a percentage.
    Percent,
    /// A plain number (rank counts).
    Plain,
}

/// How values map to drawing units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    Linear,
    /// The logarithm of this base.
    Log(f64),
}

/// One axis: its range and ticks in drawing units, and each tick's label.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub scale: Scale,
    /// Tick positions (drawing units) and labels.
    pub ticks: Vec<(f64, String)>,
    /// The axis title.
    pub desc: String,
}

impl Axis {
    /// A value in drawing units.
    pub fn to(&self, v: f64) -> f64 {
        match self.scale {
            Scale::Log(b) => v.log(b),
            Scale::Linear => v,
        }
    }

    /// The value at a position in drawing units.
    pub fn value_at(&self, t: f64) -> f64 {
        match self.scale {
            Scale::Log(b) => b.powf(t),
            Scale::Linear => t,
        }
    }

    /// The label of the tick at `t` (drawing units), or nothing between ticks.
    pub fn label_at(&self, t: f64) -> String {
        let tolerance = (self.hi - self.lo).abs() * 1e-9;
        self.ticks
            .iter()
            .find(|(at, _)| (at - t).abs() <= tolerance)
            .map(|(_, label)| label.clone())
            .unwrap_or_default()
    }

    /// Rank counts on a base-2 log axis, a tick at each count run.
    pub fn ranks(ranks: &[usize]) -> Axis {
        let ticks: Vec<(f64, String)> = ranks
            .iter()
            .map(|&p| ((p as f64).log2(), p.to_string()))
            .collect();
        let (lo, hi) = match (ticks.first(), ticks.last()) {
            (Some(lo), Some(hi)) if hi.0 > lo.0 => (lo.0 - 0.3, hi.0 + 0.3),
            (Some(t), _) => (t.0 - 0.5, t.0 + 0.5),
            _ => (-0.5, 0.5),
        };
        Axis {
            lo,
            hi,
            scale: Scale::Log(2.0),
            ticks,
            desc: "ranks P (log scale)".into(),
        }
    }

    /// Categories at 0, 1, 2, … with these labels (the rank counts of a bar chart).
    pub fn categories(labels: &[String], desc: &str) -> Axis {
        Axis {
            lo: -0.6,
            hi: labels.len().max(1) as f64 - 0.4,
            scale: Scale::Linear,
            ticks: labels
                .iter()
                .enumerate()
                .map(|(k, l)| (k as f64, l.clone()))
                .collect(),
            desc: desc.into(),
        }
    }

    /// A base-10 log axis covering the positive `values` (others are ignored), with ticks at
    /// round values: 1-2-5 within three decades, powers of ten beyond.
    pub fn log(values: &[f64], unit: Unit, desc: &str) -> Axis {
        let pos: Vec<f64> = values
            .iter()
            .copied()
            .filter(|v| *v > 0.0 && v.is_finite())
            .collect();
        let (lo, hi) = if pos.is_empty() {
            (1.0, 10.0)
        } else {
            (
                pos.iter().copied().fold(f64::INFINITY, f64::min),
                pos.iter().copied().fold(0.0, f64::max),
            )
        };
        let (mut a, mut b) = (lo.log10(), hi.log10());
        let pad = ((b - a) * 0.08).max(0.12);
        a -= pad;
        b += pad;
        let ticks = log_ticks(a, b)
            .into_iter()
            .map(|v| (v.log10(), label(v, unit)))
            .collect();
        Axis {
            lo: a,
            hi: b,
            scale: Scale::Log(10.0),
            ticks,
            desc: desc.into(),
        }
    }

    /// A linear axis from 0 to a little above `max`, ticks at a round step (1, 2, 2.5 or 5
    /// times a power of ten) giving five to eleven ticks.
    pub fn linear(max: f64, unit: Unit, desc: &str) -> Axis {
        let max = if max > 0.0 && max.is_finite() {
            max
        } else {
            1.0
        };
        let hi = max * 1.1;
        // The largest round step that still gives five ticks or more.
        let top = 10f64.powf(hi.log10().ceil());
        let step = (0..40)
            .flat_map(|k| [1.0, 0.5, 0.25, 0.2].map(|m| m * top / 10f64.powi(k)))
            .find(|s| (hi / s).floor() >= 4.0)
            .unwrap_or(hi / 4.0);
        let ticks = (0..)
            .map(|k| k as f64 * step)
            .take_while(|t| *t <= hi * (1.0 + 1e-9))
            .map(|t| (t, label(t, unit)))
            .collect();
        Axis {
            lo: 0.0,
            hi,
            scale: Scale::Linear,
            ticks,
            desc: desc.into(),
        }
    }
}

/// Round values between 10^a and 10^b: the sparsest of 1-2-5 sets that gives at least three,
/// thinned to at most twelve.
fn log_ticks(a: f64, b: f64) -> Vec<f64> {
    let sets: [&[f64]; 4] = [
        &[1.0],
        &[1.0, 2.0, 5.0],
        &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0],
        &[1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    ];
    let mut best = Vec::new();
    for set in sets {
        best = Vec::new();
        for k in a.floor() as i32..=b.ceil() as i32 {
            for &m in set {
                let v = m * 10f64.powi(k);
                let t = v.log10();
                if t >= a - 1e-12 && t <= b + 1e-12 {
                    best.push(v);
                }
            }
        }
        if best.len() >= 3 {
            break;
        }
    }
    let keep = best.len().div_ceil(12).max(1);
    best.into_iter().step_by(keep).collect()
}

/// A number with at most three significant digits, without trailing zeros: `0.002`, `2.5`,
/// `150`, `25000`.
pub fn compact(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".into();
    }
    let decimals = (2 - v.abs().log10().floor() as i32).clamp(0, 12) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

/// `v` in `unit`, for a tick or a tooltip.
pub fn label(v: f64, unit: Unit) -> String {
    match unit {
        Unit::Seconds => {
            if v == 0.0 {
                "0".into()
            } else if v.abs() < 1e-3 {
                format!("{} µs", compact(v * 1e6))
            } else if v.abs() < 1.0 {
                format!("{} ms", compact(v * 1e3))
            } else {
                format!("{} s", compact(v))
            }
        }
        Unit::Count => {
            if v.abs() >= 1e6 {
                format!("{}M", compact(v / 1e6))
            } else if v.abs() >= 1e3 {
                format!("{}k", compact(v / 1e3))
            } else {
                compact(v)
            }
        }
        Unit::Ratio => format!("{}×", compact(v)),
        Unit::Percent => format!("{}%", compact(v * 100.0)),
        Unit::Plain => compact(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(axis: &Axis) -> Vec<&str> {
        axis.ticks.iter().map(|(_, l)| l.as_str()).collect()
    }

    #[test]
    fn labels_carry_their_unit() {
        assert_eq!(label(0.00002, Unit::Seconds), "20 µs");
        assert_eq!(label(0.0015, Unit::Seconds), "1.5 ms");
        assert_eq!(label(0.5, Unit::Seconds), "500 ms");
        assert_eq!(label(2.0, Unit::Seconds), "2 s");
        assert_eq!(label(0.0, Unit::Seconds), "0");
        assert_eq!(label(500.0, Unit::Count), "500");
        assert_eq!(label(20_000.0, Unit::Count), "20k");
        assert_eq!(label(1_500_000.0, Unit::Count), "1.5M");
        assert_eq!(label(0.01, Unit::Ratio), "0.01×");
        assert_eq!(label(4.0, Unit::Ratio), "4×");
        assert_eq!(label(0.5, Unit::Percent), "50%");
        assert_eq!(compact(0.00001), "0.00001");
        assert_eq!(compact(123456.0), "123456");
    }

    #[test]
    fn log_axes_have_round_ticks_in_one_unit_style() {
        let t = Axis::log(&[0.00002, 0.003], Unit::Seconds, "s");
        assert!(t.lo <= 0.00002f64.log10() && t.hi >= 0.003f64.log10());
        let l = labels(&t);
        assert!(l.contains(&"100 µs") && l.contains(&"1 ms"), "{l:?}");
        assert!(l.iter().all(|s| !s.contains('e')), "{l:?}");
        // A narrow range still gets at least three ticks.
        let narrow = Axis::log(&[0.8, 1.3], Unit::Ratio, "x");
        assert!(narrow.ticks.len() >= 3, "{narrow:?}");
        assert!(labels(&narrow).contains(&"1×"), "{narrow:?}");
        // A wide range keeps powers of ten only, at most twelve.
        let wide = Axis::log(&[1e-6, 1e4], Unit::Seconds, "s");
        assert!(wide.ticks.len() <= 12, "{wide:?}");
        assert!(labels(&wide).contains(&"1 s"), "{wide:?}");
    }

    #[test]
    fn linear_and_rank_axes() {
        let l = Axis::linear(0.0073, Unit::Seconds, "s");
        assert_eq!(l.ticks[0].1, "0");
        assert!(l.hi >= 0.0073 && (5..=11).contains(&l.ticks.len()), "{l:?}");
        let e = Axis::linear(1.15, Unit::Percent, "e");
        assert_eq!(e.ticks[1].1, "25%", "{e:?}");
        assert_eq!(
            labels(&Axis::linear(1.0, Unit::Percent, "e"))[..3],
            ["0%", "25%", "50%"]
        );
        let r = Axis::ranks(&[1, 2, 4, 8]);
        assert_eq!(labels(&r), ["1", "2", "4", "8"]);
        assert_eq!(r.label_at(3.0), "8");
        assert_eq!(r.label_at(2.5), "");
        assert!((r.value_at(r.to(4.0)) - 4.0).abs() < 1e-12);
        let c = Axis::categories(&["1".into(), "2".into()], "P");
        assert_eq!((c.ticks[1].0, c.label_at(1.0).as_str()), (1.0, "2"));
    }
}
