//! Text compared whatever its case (searches, sorting by name).
//!
//! Text beyond ASCII is lowered by the browser (`String.prototype.toLowerCase`), which has
//! Unicode's case tables already: Rust's own (`str::to_lowercase`) put ~26 KB of tables in the
//! code every signed-in page loads. Wire values are ASCII and use `to_ascii_lowercase`.

/// `text` in lower case, as the browser lowers it ("Émile" as "émile").
pub fn lower(text: &str) -> String {
    // Most names are ASCII: lowered here, without a call into the browser (a thousand names
    // sorted: 5 ms through the browser).
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    js_sys::JsString::from(text).to_lower_case().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn lowers_beyond_ascii() {
        assert_eq!(lower("Émile DÉPLOIE Web"), "émile déploie web");
        assert_eq!(lower("ΣΊΣΥΦΟΣ"), "σίσυφος");
        assert_eq!(lower("Shop-Front 2"), "shop-front 2");
    }
}
