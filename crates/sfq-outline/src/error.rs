//! The one error this crate returns: an option value out of its range.
//! Content never causes an error (any text gets an outline, any line number
//! gets a window).

use serde::Serialize;

/// An invalid option, with the option's JS name and a message that says
/// what was given and what is accepted. Serialises as
/// `{"code": "EINVALIDOPTION", "option": "maxItems", "message": "…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionError {
    /// Always [`OptionError::CODE`].
    pub code: &'static str,
    /// The option's name as the JS API spells it (`maxItems`, `windowSize`…).
    pub option: &'static str,
    /// A complete sentence: `maxItems must be an integer from 1 to 1000000; got 0`.
    pub message: String,
}

impl OptionError {
    /// The error code the JS layer should put on its `Error`.
    pub const CODE: &'static str = "EINVALIDOPTION";

    /// An error for `option` that was `got` but must be an integer in
    /// `min..=max`.
    pub(crate) fn out_of_range(
        option: &'static str,
        got: impl std::fmt::Display,
        min: u64,
        max: u64,
    ) -> Self {
        OptionError {
            code: Self::CODE,
            option,
            message: format!("{option} must be an integer from {min} to {max}; got {got}"),
        }
    }

    /// Checks `value` is in `min..=max` and converts it.
    pub(crate) fn check_range(
        option: &'static str,
        value: i64,
        min: u64,
        max: u64,
    ) -> Result<u64, Self> {
        match u64::try_from(value) {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(Self::out_of_range(option, value, min, max)),
        }
    }
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OptionError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_check_and_message() {
        assert_eq!(OptionError::check_range("maxItems", 5, 1, 10), Ok(5));
        let e = OptionError::check_range("maxItems", -1, 1, 10).unwrap_err();
        assert_eq!(e.to_string(), "maxItems must be an integer from 1 to 10; got -1");
        assert_eq!(e.option, "maxItems");
        let json = serde_json::to_string(&e).unwrap();
        assert!(json.starts_with(r#"{"code":"EINVALIDOPTION","option":"maxItems""#), "{json}");
    }
}
