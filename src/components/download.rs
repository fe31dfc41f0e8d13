//! A text handed to the person as a file, as a browser downloads one.

use wasm_bindgen::JsCast;

/// Saves `text` as the file `name` (plain text), through an object URL: a `data:` link would
/// copy the whole text into the page's markup, and a log may be megabytes.
pub fn download_text(name: &str, text: &str) -> Result<(), String> {
    let failed = |what: &str| format!("The browser refused to {what}.");
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/plain;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| failed("make the file"))?;
    let url =
        web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| failed("make the file"))?;
    let link = leptos::prelude::document()
        .create_element("a")
        .map_err(|_| failed("save the file"))?
        .unchecked_into::<web_sys::HtmlAnchorElement>();
    link.set_href(&url);
    link.set_download(name);
    link.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}
