//! A straight-line trend through estimates that carry their own standard errors: weighted least
//! squares with weights `1/se²`, as for a metric measured at several strengths (`x` the log of the
//! budget). With three points or more the errors are scaled up by `√(χ²/(k − 2))` when the points
//! scatter more than their errors say (the Particle Data Group's scale factor; never scaled down),
//! so a trend that does not fit is not reported more precisely than its points.

use crate::normal::Z95;

/// One measured point: where, the estimate, and its standard error (> 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Where it was measured.
    pub x: f64,
    /// The estimate.
    pub y: f64,
    /// Its standard error.
    pub se: f64,
}

/// A fitted line `y = mean_y + slope·(x − mean_x)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    /// The weighted mean of the points' `x`.
    pub mean_x: f64,
    /// The fitted value at `mean_x` (the weighted mean of `y`).
    pub mean_y: f64,
    /// The slope.
    pub slope: f64,
    /// The slope's standard error (scaled, see the module).
    pub slope_se: f64,
    /// `mean_y`'s standard error (scaled).
    pub mean_y_se: f64,
    /// The scale factor applied to the errors (1 when the points fit).
    pub scale: f64,
    /// χ² of the points about the line, and its degrees of freedom (`k − 2`).
    pub chi2: (f64, usize),
    /// The smallest and largest `x` fitted: values outside are extrapolations.
    pub range: (f64, f64),
}

/// The line's value somewhere, with its 95% interval, and whether that is outside the points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// The fitted value.
    pub value: f64,
    /// The lower end of its 95% interval.
    pub lo: f64,
    /// The upper end.
    pub hi: f64,
    /// Outside the range of the fitted points.
    pub extrapolated: bool,
}

impl Line {
    /// The 95% interval of the slope.
    #[must_use]
    pub fn slope_interval(&self) -> (f64, f64) {
        (self.slope - Z95 * self.slope_se, self.slope + Z95 * self.slope_se)
    }

    /// The line at `x`: the value, its 95% interval (the mean's and the slope's errors, which
    /// are uncorrelated about `mean_x`), and whether `x` lies outside the fitted points.
    #[must_use]
    pub fn at(&self, x: f64) -> Prediction {
        let value = self.mean_y + self.slope * (x - self.mean_x);
        let se = (self.mean_y_se.powi(2) + ((x - self.mean_x) * self.slope_se).powi(2)).sqrt();
        let tolerance = 1e-9 * (self.range.1 - self.range.0).abs().max(1.0);
        let extrapolated = x < self.range.0 - tolerance || x > self.range.1 + tolerance;
        Prediction { value, lo: value - Z95 * se, hi: value + Z95 * se, extrapolated }
    }
}

/// The weighted least-squares line through `points`; `None` with fewer than two usable points
/// (finite, with a positive finite error) or when they all share one `x`.
#[must_use]
pub fn fit_line(points: &[Point]) -> Option<Line> {
    let usable: Vec<Point> = points
        .iter()
        .copied()
        .filter(|p| p.x.is_finite() && p.y.is_finite() && p.se.is_finite() && p.se > 0.0)
        .collect();
    if usable.len() < 2 {
        return None;
    }
    let w = |p: &Point| 1.0 / (p.se * p.se);
    let sw: f64 = usable.iter().map(w).sum();
    let mean_x = usable.iter().map(|p| w(p) * p.x).sum::<f64>() / sw;
    let mean_y = usable.iter().map(|p| w(p) * p.y).sum::<f64>() / sw;
    let sxx: f64 = usable.iter().map(|p| w(p) * (p.x - mean_x).powi(2)).sum();
    if sxx <= 0.0 || !sxx.is_finite() {
        return None;
    }
    let slope = usable.iter().map(|p| w(p) * (p.x - mean_x) * (p.y - mean_y)).sum::<f64>() / sxx;
    let chi2: f64 = usable.iter().map(|p| w(p) * (p.y - mean_y - slope * (p.x - mean_x)).powi(2)).sum();
    let dof = usable.len() - 2;
    let scale = if dof > 0 { (chi2 / dof as f64).sqrt().max(1.0) } else { 1.0 };
    let xs = usable.iter().map(|p| p.x);
    let range = (xs.clone().fold(f64::INFINITY, f64::min), xs.fold(f64::NEG_INFINITY, f64::max));
    Some(Line {
        mean_x,
        mean_y,
        slope,
        slope_se: scale / sxx.sqrt(),
        mean_y_se: scale / sw.sqrt(),
        scale,
        chi2: (chi2, dof),
        range,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, se: f64) -> Point {
        Point { x, y, se }
    }

    #[test]
    fn points_on_a_line_give_it_exactly_with_the_textbook_errors() {
        // y = 1 + 2x at x = 0, 1, 2, each with se 1: Sxx = 2, Σw = 3.
        let l = fit_line(&[p(0.0, 1.0, 1.0), p(1.0, 3.0, 1.0), p(2.0, 5.0, 1.0)]).unwrap();
        assert!((l.slope - 2.0).abs() < 1e-12 && (l.mean_x - 1.0).abs() < 1e-12 && (l.mean_y - 3.0).abs() < 1e-12);
        assert!((l.slope_se - 0.5f64.sqrt()).abs() < 1e-12, "{}", l.slope_se);
        assert!((l.mean_y_se - (1.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!((l.scale, l.chi2.1), (1.0, 1));
        let at = l.at(4.0);
        assert!((at.value - 9.0).abs() < 1e-12 && at.extrapolated);
        // se² at x = 4: 1/3 + 9·(1/2).
        assert!(((at.hi - at.value) / Z95 - (1.0f64 / 3.0 + 4.5).sqrt()).abs() < 1e-12);
        assert!(!l.at(1.5).extrapolated && !l.at(2.0).extrapolated && l.at(-0.1).extrapolated);
    }

    #[test]
    fn weights_follow_the_errors_and_scatter_widens_the_interval() {
        // The precise point pulls the line: its weight is 10,000 times the others'.
        let l = fit_line(&[p(0.0, 0.0, 1.0), p(1.0, 0.0, 0.01), p(2.0, 3.0, 1.0)]).unwrap();
        assert!((l.mean_x - 1.0).abs() < 1e-3 && l.mean_y.abs() < 0.01, "{l:?}");
        // Points far off any line: χ²/dof > 1 scales the errors up, by exactly its root.
        let bent = fit_line(&[p(0.0, 0.0, 0.1), p(1.0, 1.0, 0.1), p(2.0, 0.0, 0.1)]).unwrap();
        assert!(bent.scale > 1.0 && (bent.scale - bent.chi2.0.sqrt()).abs() < 1e-12, "{bent:?}");
        assert!((bent.slope_se - bent.scale * 0.1 / 2f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn too_few_usable_points_give_no_line() {
        assert!(fit_line(&[]).is_none());
        assert!(fit_line(&[p(1.0, 1.0, 1.0)]).is_none());
        assert!(fit_line(&[p(1.0, 1.0, 1.0), p(1.0, 2.0, 1.0)]).is_none(), "one x");
        assert!(fit_line(&[p(1.0, 1.0, 1.0), p(2.0, f64::NAN, 1.0)]).is_none());
        assert!(fit_line(&[p(1.0, 1.0, 1.0), p(2.0, 2.0, 0.0)]).is_none(), "no error");
        assert!(fit_line(&[p(1.0, 1.0, 1.0), p(2.0, 2.0, 1.0), p(3.0, 5.0, f64::NAN)]).is_some());
    }

    /// A known slope recovered from noisy measurements: 7 points at slope 0.03 with Gaussian
    /// noise of the stated error (a fixed generator); over 200 such fits the 95% interval holds
    /// the true slope about 95% of the time.
    #[test]
    fn a_known_slope_is_recovered_within_its_interval_about_95_percent_of_the_time() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut uniform = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut gauss = || {
            let (u, v) = (uniform().max(1e-300), uniform());
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        };
        let mut held = 0;
        for _ in 0..200 {
            let pts: Vec<Point> = (0..7)
                .map(|i| {
                    let (x, se) = (f64::from(i), 0.01 + 0.002 * f64::from(i));
                    p(x, 0.2 + 0.03 * x + se * gauss(), se)
                })
                .collect();
            let (lo, hi) = fit_line(&pts).unwrap().slope_interval();
            held += usize::from(lo <= 0.03 && 0.03 <= hi);
        }
        assert!((180..=199).contains(&held), "{held} of 200");
    }
}
