//! Where clusters run: the cloud providers the platform knows (its `CloudVendorEnum`, vendors
//! written with the spec's letters: PROVIDER_A is the document's SCW, PROVIDER_E its GCP,
//! PROVIDER_F its AZURE) and, for those whose regions it lists (`GET /aws/region` and the like),
//! the regions.

use serde::{Deserialize, Serialize};

use crate::error::FieldError;
use crate::paths::{self, Template};

wire_enum!(
    /// The cloud a cluster runs in.
    CloudProvider {
        Aws = "AWS" => "Amazon Web Services",
        ProviderA = "PROVIDER_A" => "Provider A",
        ProviderE = "PROVIDER_E" => "Provider E",
        DigitalOcean = "DO" => "DigitalOcean",
        ProviderF = "PROVIDER_F" => "Provider F",
        Ovh = "OVH" => "OVHcloud",
        Civo = "CIVO" => "Civo",
        Hetzner = "HETZNER" => "Hetzner",
        Oracle = "ORACLE" => "Oracle Cloud",
        Ibm = "IBM" => "IBM Cloud",
        OnPremise = "ON_PREMISE" => "On premise",
    }
);

/// One region of a provider, as the platform's `ClusterRegion` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub name: &'static str,
    pub city: &'static str,
    pub country_code: &'static str,
}

const fn region(name: &'static str, city: &'static str, country_code: &'static str) -> Region {
    Region {
        name,
        city,
        country_code,
    }
}

const AWS: &[Region] = &[
    region("us-east-1", "N. Virginia", "US"),
    region("us-east-2", "Ohio", "US"),
    region("us-west-1", "N. California", "US"),
    region("us-west-2", "Oregon", "US"),
    region("ca-central-1", "Montreal", "CA"),
    region("sa-east-1", "São Paulo", "BR"),
    region("eu-west-1", "Dublin", "IE"),
    region("eu-west-2", "London", "GB"),
    region("eu-west-3", "Paris", "FR"),
    region("eu-central-1", "Frankfurt", "DE"),
    region("eu-south-1", "Milan", "IT"),
    region("eu-north-1", "Stockholm", "SE"),
    region("ap-south-1", "Mumbai", "IN"),
    region("ap-northeast-1", "Tokyo", "JP"),
    region("ap-northeast-2", "Seoul", "KR"),
    region("ap-southeast-1", "Singapore", "SG"),
    region("ap-southeast-2", "Sydney", "AU"),
];

const PROVIDER_A: &[Region] = &[
    region("fr-par", "Paris", "FR"),
    region("nl-ams", "Amsterdam", "NL"),
    region("pl-waw", "Warsaw", "PL"),
];

const PROVIDER_E: &[Region] = &[
    region("us-central1", "Iowa", "US"),
    region("us-east1", "South Carolina", "US"),
    region("us-east4", "N. Virginia", "US"),
    region("us-west1", "Oregon", "US"),
    region("southamerica-east1", "São Paulo", "BR"),
    region("europe-west1", "St. Ghislain", "BE"),
    region("europe-west2", "London", "GB"),
    region("europe-west3", "Frankfurt", "DE"),
    region("europe-west4", "Eemshaven", "NL"),
    region("europe-west9", "Paris", "FR"),
    region("asia-east1", "Changhua County", "TW"),
    region("asia-northeast1", "Tokyo", "JP"),
    region("asia-southeast1", "Singapore", "SG"),
    region("australia-southeast1", "Sydney", "AU"),
];

const PROVIDER_F: &[Region] = &[
    region("eastus", "Virginia", "US"),
    region("eastus2", "Virginia", "US"),
    region("centralus", "Iowa", "US"),
    region("westus2", "Washington", "US"),
    region("canadacentral", "Toronto", "CA"),
    region("brazilsouth", "São Paulo", "BR"),
    region("northeurope", "Dublin", "IE"),
    region("westeurope", "Amsterdam", "NL"),
    region("uksouth", "London", "GB"),
    region("francecentral", "Paris", "FR"),
    region("germanywestcentral", "Frankfurt", "DE"),
    region("japaneast", "Tokyo", "JP"),
    region("southeastasia", "Singapore", "SG"),
    region("australiaeast", "Sydney", "AU"),
];

impl CloudProvider {
    /// The zones of one of its listed regions, for the clouds whose instance types are listed
    /// by zone (Provider A: `fr-par-1` to `fr-par-3`).
    pub fn zones(self, region: &str) -> Option<Vec<String>> {
        (self == CloudProvider::ProviderA)
            .then(|| (1..=3).map(|zone| format!("{region}-{zone}")).collect())
    }

    /// The names of `regions`.
    pub fn region_names(self) -> Option<Vec<&'static str>> {
        self.regions()
            .map(|regions| regions.iter().map(|region| region.name).collect())
    }

    /// The regions a cluster of this provider may be in, when the platform lists them; `None`
    /// for providers whose regions are not listed (any well-formed region name is taken).
    pub fn regions(self) -> Option<&'static [Region]> {
        match self {
            CloudProvider::Aws => Some(AWS),
            CloudProvider::ProviderA => Some(PROVIDER_A),
            CloudProvider::ProviderE => Some(PROVIDER_E),
            CloudProvider::ProviderF => Some(PROVIDER_F),
            _ => None,
        }
    }
}

/// A cloud as the platform lists it (`GET /cloudProvider`), with its regions.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListedCloudProvider {
    pub short_name: CloudProvider,
    pub name: String,
    #[serde(default)]
    pub logo_url: Option<String>,
    #[serde(default)]
    pub regions: Vec<ClusterRegion>,
}

/// One region as the platform lists it (`GET /aws/region` and the like).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClusterRegion {
    pub name: String,
    pub country_code: String,
    pub country: String,
    pub city: String,
    #[serde(default)]
    pub arm_supported: Option<bool>,
    #[serde(default)]
    pub zones: Option<Vec<String>>,
}

impl ClusterRegion {
    /// "Paris, France (eu-west-3)": what a person picks a region by.
    pub fn label(&self) -> String {
        format!("{}, {} ({})", self.city, self.country, self.name)
    }
}

impl Region {
    /// The region as the platform lists it.
    pub fn listed(&self) -> ClusterRegion {
        ClusterRegion {
            name: self.name.to_string(),
            country_code: self.country_code.to_string(),
            country: country_name(self.country_code).to_string(),
            city: self.city.to_string(),
            arm_supported: None,
            zones: None,
        }
    }
}

/// The countries the listed regions are in, by ISO 3166 code.
fn country_name(code: &str) -> &'static str {
    match code {
        "US" => "United States",
        "CA" => "Canada",
        "BR" => "Brazil",
        "IE" => "Ireland",
        "GB" => "United Kingdom",
        "FR" => "France",
        "DE" => "Germany",
        "IT" => "Italy",
        "SE" => "Sweden",
        "NL" => "Netherlands",
        "PL" => "Poland",
        "BE" => "Belgium",
        "IN" => "India",
        "JP" => "Japan",
        "KR" => "South Korea",
        "SG" => "Singapore",
        "AU" => "Australia",
        "TW" => "Taiwan",
        _ => "",
    }
}

/// Where the platform lists `provider`'s regions, for the providers it lists them of.
pub fn regions_path(provider: CloudProvider) -> Option<Template> {
    Some(match provider {
        CloudProvider::Aws => paths::AWS_REGIONS,
        CloudProvider::ProviderA => paths::PROVIDER_A_REGIONS,
        CloudProvider::ProviderE => paths::PROVIDER_E_REGIONS,
        CloudProvider::ProviderF => paths::PROVIDER_F_REGIONS,
        _ => return None,
    })
}

/// Region names are lowercase letters, digits and hyphens, as every provider writes them.
const REGION_MAX_CHARS: usize = 63;

/// `region` is one of `listed` (the regions known of `provider`), or, for a provider whose
/// regions are not listed, a well-formed region name.
pub fn region_rule(
    field: &str,
    provider: CloudProvider,
    value: &str,
    listed: Option<&[&str]>,
) -> Option<FieldError> {
    use crate::wire::WireEnum;
    if value.trim().is_empty() {
        return Some(FieldError::new(field, "is required"));
    }
    match listed {
        Some(regions) if !regions.contains(&value) => Some(FieldError::new(
            field,
            format!(
                "is not a region of {}{}",
                provider.label(),
                regions
                    .first()
                    .map(|first| format!(" (for example {first})"))
                    .unwrap_or_default()
            ),
        )),
        Some(_) => None,
        None => {
            let well_formed = value.len() <= REGION_MAX_CHARS
                && value
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && value.starts_with(|c: char| c.is_ascii_lowercase());
            (!well_formed).then(|| {
                FieldError::new(
                    field,
                    "must start with a lowercase letter and hold only lowercase letters, digits and hyphens",
                )
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_must_be_one_of_the_providers() {
        assert_eq!(
            region_rule(
                "region",
                CloudProvider::Aws,
                "eu-west-3",
                CloudProvider::Aws.region_names().as_deref()
            ),
            None
        );
        let refused = region_rule(
            "region",
            CloudProvider::Aws,
            "narnia-1",
            CloudProvider::Aws.region_names().as_deref(),
        )
        .unwrap();
        assert_eq!(refused.field, "region");
        assert!(refused
            .message
            .contains("not a region of Amazon Web Services"));
        assert!(region_rule(
            "region",
            CloudProvider::ProviderA,
            "eu-west-3",
            CloudProvider::ProviderA.region_names().as_deref()
        )
        .is_some());
        assert!(region_rule("region", CloudProvider::Aws, "", None)
            .unwrap()
            .message
            .contains("required"));
    }

    #[test]
    fn an_unlisted_providers_region_must_be_well_formed() {
        assert_eq!(
            region_rule("region", CloudProvider::OnPremise, "dc-paris-2", None),
            None
        );
        assert!(region_rule("region", CloudProvider::OnPremise, "Narnia 1!", None).is_some());
    }

    #[test]
    fn every_listed_regions_country_is_named() {
        for provider in CloudProvider::ALL {
            for region in provider.regions().unwrap_or_default() {
                assert!(
                    !region.listed().country.is_empty(),
                    "{}",
                    region.country_code
                );
            }
        }
    }

    #[test]
    fn every_listed_region_is_well_formed_and_listed_once() {
        for provider in CloudProvider::ALL {
            let Some(regions) = provider.regions() else {
                continue;
            };
            for (index, region) in regions.iter().enumerate() {
                assert!(region
                    .name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
                assert!(!regions[..index]
                    .iter()
                    .any(|other| other.name == region.name));
            }
        }
    }
}
