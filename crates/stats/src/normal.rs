//! The standard normal distribution.

/// The 97.5% quantile of the standard normal distribution (two-sided 95% interval).
pub const Z95: f64 = 1.959_963_984_540_054;

/// The standard normal distribution function Φ.
#[must_use]
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7).
#[must_use]
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn normal_cdf_matches_tables() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_cdf(Z95), 0.975, 1e-7));
        assert!(close(normal_cdf(-1.0), 0.158_655_25, 1e-7));
        assert!(close(normal_cdf(3.0), 0.998_650_10, 1e-7));
        assert!(close(erfc(0.5), 0.479_500_12, 1e-7));
    }
}
