//! What every enumeration of the wire (`wire_enum!`) shares: the trait that says what it is, and
//! how a value this version does not know is read.

static UNKNOWN_VALUES_ACCEPTED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// From now on, an enumeration's value this version does not know reads as its `Other` variant
/// rather than failing the answer: what the console does, so that a platform newer than it
/// shows its new values as it sends them. The server never does: a request's unknown value is
/// refused with the values it takes.
pub fn accept_unknown_values() {
    UNKNOWN_VALUES_ACCEPTED.store(true, std::sync::atomic::Ordering::Relaxed);
}

pub(crate) fn unknown_values_accepted() -> bool {
    UNKNOWN_VALUES_ACCEPTED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The vendor words of the production document's enumeration values and the spec's letters for
/// them ("each letter stands for one fixed vendor", `platform-api.md`; `cloud.rs`), longest
/// first. ECR, PUBLIC_ECR, DOCR and AWS keep their names: the spec writes them so.
const VENDOR_LETTERS: &[(&str, &str)] = &[
    ("SCALEWAY", "PROVIDER_A"),
    ("SCW", "PROVIDER_A"),
    ("DOCKER_HUB", "PROVIDER_B_HUB"),
    ("GITHUB", "PROVIDER_C"),
    ("GITLAB", "PROVIDER_D"),
    ("GCP", "PROVIDER_E"),
    ("AZURE", "PROVIDER_F"),
    ("BITBUCKET", "PROVIDER_G"),
];

/// An enumeration value of the production document in the spec's letters, when it names a
/// vendor: `GITHUB` is `PROVIDER_C`, `OCI_SCALEWAY_CR` is `OCI_PROVIDER_A_CR`,
/// `GCP_ARTIFACT_REGISTRY` is `PROVIDER_E_ARTIFACT_REGISTRY`; `DOCKER` (a build mode) names none.
/// A client generated from that document sends its names: the server reads them as the letters
/// they stand for, and answers with the letters.
pub fn in_spec_letters(value: &str) -> Option<String> {
    let words: Vec<&str> = value.split('_').collect();
    VENDOR_LETTERS.iter().find_map(|(vendor, letter)| {
        let vendor_words: Vec<&str> = vendor.split('_').collect();
        let start = words
            .windows(vendor_words.len())
            .position(|window| window == vendor_words.as_slice())?;
        let mut translated = words[..start].to_vec();
        translated.push(letter);
        translated.extend_from_slice(&words[start + vendor_words.len()..]);
        Some(translated.join("_"))
    })
}

/// The unknown values read so far, each kept once for the life of the program (a few words a
/// platform added, read at every poll).
pub(crate) fn intern(value: &str) -> &'static str {
    static SEEN: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut seen = SEEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match seen.iter().find(|known| **known == value) {
        Some(known) => known,
        None => {
            let kept: &'static str = Box::leak(value.to_string().into_boxed_str());
            seen.push(kept);
            kept
        }
    }
}

/// What every enumeration of the wire (declared with `wire_enum!`) can say of itself: what a
/// select of it offers, sends and shows.
pub trait WireEnum: Copy + PartialEq + Send + Sync + std::str::FromStr + 'static {
    /// Every value, in the spec's order.
    fn all() -> &'static [Self];
    /// The value as the wire spells it.
    fn as_str(self) -> &'static str;
    /// The value in the words of a page.
    fn label(self) -> &'static str;
}

/// The words of a value this version does not know, in an enum whose labels are the wire values.
pub(crate) fn as_sent(value: &'static str) -> &'static str {
    value
}

/// The words of a value this version does not know, in an enum whose labels are in sentence
/// case: in sentence case too, kept once per value as `intern` keeps the value.
pub(crate) fn sentence_cased(value: &'static str) -> &'static str {
    // Only ASCII bytes change: what was UTF-8 stays UTF-8.
    let bytes: Vec<u8> = value
        .bytes()
        .enumerate()
        .map(|(at, byte)| sentence_byte(at, byte))
        .collect();
    intern(&String::from_utf8_lossy(&bytes))
}

/// A wire value in sentence case (`DEPLOYMENT_QUEUED` → `Deployment queued`), for
/// `wire_enum!`'s `sentence_case` labels, worked out when the crate compiles.
pub(crate) const fn sentence_case<const N: usize>(wire: &str) -> [u8; N] {
    let bytes = wire.as_bytes();
    let mut out = [0u8; N];
    let mut at = 0;
    while at < N {
        out[at] = sentence_byte(at, bytes[at]);
        at += 1;
    }
    out
}

/// The byte at `at` of a wire value in sentence case: `_` a space, the first a capital, the
/// rest lower case.
const fn sentence_byte(at: usize, byte: u8) -> u8 {
    match byte {
        b'_' => b' ',
        byte if at == 0 => byte.to_ascii_uppercase(),
        byte => byte.to_ascii_lowercase(),
    }
}

#[cfg(test)]
#[cfg(feature = "vendor-aliases")]
mod tests {
    use crate::{CloudProvider, GitProvider, HelmRepositoryKind, RegistryKind};

    fn read<T: serde::de::DeserializeOwned>(value: &str) -> Result<T, String> {
        serde_json::from_value(serde_json::json!(value)).map_err(|error| error.to_string())
    }

    #[test]
    fn the_documents_vendor_names_read_as_the_specs_letters() {
        assert_eq!(read::<GitProvider>("GITHUB"), Ok(GitProvider::ProviderC));
        assert_eq!(read::<GitProvider>("GITLAB"), Ok(GitProvider::ProviderD));
        assert_eq!(read::<GitProvider>("BITBUCKET"), Ok(GitProvider::ProviderG));
        assert_eq!(read::<CloudProvider>("SCW"), Ok(CloudProvider::ProviderA));
        assert_eq!(read::<CloudProvider>("GCP"), Ok(CloudProvider::ProviderE));
        assert_eq!(read::<CloudProvider>("AZURE"), Ok(CloudProvider::ProviderF));
        assert_eq!(read::<CloudProvider>("AWS"), Ok(CloudProvider::Aws));
        for (document, letters) in [
            ("SCALEWAY_CR", RegistryKind::ProviderACr),
            ("DOCKER_HUB", RegistryKind::ProviderBHub),
            ("GITHUB_CR", RegistryKind::ProviderCCr),
            ("GITHUB_ENTERPRISE_CR", RegistryKind::ProviderCEnterpriseCr),
            ("GITLAB_CR", RegistryKind::ProviderDCr),
            (
                "GCP_ARTIFACT_REGISTRY",
                RegistryKind::ProviderEArtifactRegistry,
            ),
            ("AZURE_CR", RegistryKind::ProviderFCr),
        ] {
            assert_eq!(read::<RegistryKind>(document), Ok(letters), "{document}");
            // Answered in the spec's letters.
            assert!(serde_json::to_string(&letters)
                .unwrap()
                .contains("PROVIDER_"));
        }
        assert_eq!(
            read::<HelmRepositoryKind>("OCI_DOCKER_HUB"),
            Ok(HelmRepositoryKind::OciProviderBHub)
        );
        assert_eq!(
            read::<HelmRepositoryKind>("OCI_SCALEWAY_CR"),
            Ok(HelmRepositoryKind::OciProviderACr)
        );
        // A vendor's name where no value stands for it is still refused, naming the values.
        let refused = read::<GitProvider>("GITHUB_ENTERPRISE").unwrap_err();
        assert!(refused.contains("PROVIDER_C"), "{refused}");
        assert!(read::<GitProvider>("SOURCEFORGE").is_err());
    }
}
