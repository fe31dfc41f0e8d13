//! Light or dark: as the system prefers, or as the person chose (kept in `localStorage`), or as
//! the embedding page asks (`?theme=light` or `dark` in the panel's address, or a message). Applied
//! as `data-theme` on `<html>`; the stylesheet does the rest.

use leptos::prelude::*;

const STORAGE_KEY: &str = "platform-console.theme";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    System,
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    pub fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Theme::System => "System theme",
            Theme::Light => "Light",
            Theme::Dark => "Dark",
        }
    }

    pub fn parse(text: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|theme| theme.as_str() == text)
    }
}

/// `?theme=dark` (or light, system) in an address's query.
pub fn theme_in_query(search: &str) -> Option<Theme> {
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| pair.strip_prefix("theme="))
        .and_then(Theme::parse)
}

#[derive(Clone, Copy)]
pub struct ThemeChoice {
    theme: RwSignal<Theme>,
    /// Whether the choice is remembered on this device (not when embedded: the portal decides).
    remembered: bool,
}

pub fn provide_theme(embedded: bool) {
    let asked = theme_in_query(&window().location().search().unwrap_or_default());
    let stored = (!embedded)
        .then(|| storage()?.get_item(STORAGE_KEY).ok().flatten())
        .flatten()
        .and_then(|text| Theme::parse(&text));
    let initial = asked.or(stored).unwrap_or(Theme::System);
    // Applied at once, so that the first paint is already in the right theme.
    apply(initial);
    let theme = RwSignal::new(initial);
    Effect::new(move |_| apply(theme.get()));
    provide_context(ThemeChoice {
        theme,
        remembered: !embedded,
    });
}

pub fn use_theme() -> ThemeChoice {
    expect_context()
}

impl ThemeChoice {
    pub fn get(&self) -> Theme {
        self.theme.get()
    }

    pub fn set(&self, theme: Theme) {
        if self.remembered {
            if let Some(storage) = storage() {
                let _ = storage.set_item(STORAGE_KEY, theme.as_str());
            }
        }
        self.theme.set(theme);
    }
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

fn apply(theme: Theme) {
    let Some(root) = document().document_element() else {
        return;
    };
    let _ = match theme {
        Theme::System => root.remove_attribute("data-theme"),
        chosen => root.set_attribute("data-theme", chosen.as_str()),
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_theme_is_read_from_the_query() {
        assert_eq!(theme_in_query("?embed=1&theme=dark"), Some(Theme::Dark));
        assert_eq!(theme_in_query("?theme=light"), Some(Theme::Light));
        assert_eq!(theme_in_query("?theme=purple"), None);
        assert_eq!(theme_in_query(""), None);
    }
}
