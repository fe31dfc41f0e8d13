/// Declares a string enum of the wire format: serde names, the list of every value, the
/// conversions to and from the exact wire string (the server stores these strings in SQLite), and
/// the words a page shows for each value (`Variant = "WIRE" => "Label"`; the wire string when a
/// value has no label). An enum declared `sentence_case Name { .. }` shows each value in sentence
/// case (`DEPLOYMENT_QUEUED` reads "Deployment queued"), worked out when the crate compiles.
macro_rules! wire_enum {
    (@label $wire:literal) => { $wire };
    (@label $wire:literal $label:literal) => { $label };
    ($(#[doc = $doc:literal])* sentence_case $name:ident { $($variant:ident = $wire:literal),+ $(,)? }) => {
        wire_enum!(@declare [$($doc)*] $name [crate::wire::sentence_cased] { $($variant = $wire => [{
            const WIRE: &str = $wire;
            const BYTES: [u8; WIRE.len()] = crate::wire::sentence_case(WIRE);
            const LABEL: &str = match core::str::from_utf8(&BYTES) {
                Ok(label) => label,
                Err(_) => panic!("a wire value is ASCII"),
            };
            LABEL
        }]),+ });
    };
    ($(#[doc = $doc:literal])* $name:ident { $($variant:ident = $wire:literal $(=> $label:literal)?),+ $(,)? }) => {
        wire_enum!(@declare [$($doc)*] $name [crate::wire::as_sent] { $($variant = $wire => [wire_enum!(@label $wire $($label)?)]),+ });
    };
    (@declare [$($doc:literal)*] $name:ident [$other_label:path] { $($variant:ident = $wire:literal => [$label:expr]),+ }) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant,)+
            /// A value this version does not know, read as it is where unknown values are
            /// accepted (`crate::wire::accept_unknown_values`): the console shows it as the API says
            /// it rather than failing the page.
            Other(&'static str),
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Wire;
                impl serde::de::Visitor<'_> for Wire {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(concat!("a ", stringify!($name), " value"))
                    }
                    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<$name, E> {
                        // Read without surrounding spaces: the production document spells one
                        // value ` CLUSTER` (`AlertTargetType`), which is taken as `CLUSTER`.
                        match value.trim() {
                            $($wire => Ok($name::$variant),)+
                            _ if crate::wire::unknown_values_accepted() => {
                                Ok($name::Other(crate::wire::intern(value)))
                            }
                            // The production document's vendor names, taken as the spec's
                            // letters they stand for.
                            #[cfg(feature = "vendor-aliases")]
                            _ => match crate::wire::in_spec_letters(value).as_deref() {
                                $(Some($wire) => Ok($name::$variant),)+
                                _ => Err(E::unknown_variant(value, &[$($wire),+])),
                            },
                            #[cfg(not(feature = "vendor-aliases"))]
                            _ => Err(E::unknown_variant(value, &[$($wire),+])),
                        }
                    }
                }
                deserializer.deserialize_str(Wire)
            }
        }

        // Written by hand: utoipa's derive does not see the renames through this macro, and
        // would document the Rust names instead of the wire's.
        #[cfg(feature = "openapi")]
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                let lines: &[&str] = &[$($doc),*];
                let description = lines.iter().map(|line| line.trim()).collect::<Vec<_>>().join(" ");
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .description((!description.is_empty()).then_some(description))
                    .enum_values(Some([$($wire),+]))
                    .into()
            }
        }

        #[cfg(feature = "openapi")]
        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(stringify!($name))
            }
        }

        impl $name {
            /// Every value, in the spec's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The value as the wire spells it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $wire,)+
                    $name::Other(value) => value,
                }
            }
        }

        impl crate::wire::WireEnum for $name {
            fn all() -> &'static [Self] {
                Self::ALL
            }

            fn as_str(self) -> &'static str {
                $name::as_str(self)
            }

            fn label(self) -> &'static str {
                match self {
                    $($name::$variant => $label,)+
                    $name::Other(value) => $other_label(value),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        // Stored as the wire spells it; a stored value this version does not know is an error
        // of the database, never a value to show.
        #[cfg(feature = "sqlx")]
        impl sqlx::Type<sqlx::Sqlite> for $name {
            fn type_info() -> sqlx::sqlite::SqliteTypeInfo {
                <&str as sqlx::Type<sqlx::Sqlite>>::type_info()
            }
        }

        #[cfg(feature = "sqlx")]
        impl<'q> sqlx::Encode<'q, sqlx::Sqlite> for $name {
            fn encode_by_ref(
                &self,
                buffer: &mut <sqlx::Sqlite as sqlx::Database>::ArgumentBuffer<'q>,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                <&str as sqlx::Encode<'q, sqlx::Sqlite>>::encode(self.as_str(), buffer)
            }
        }

        #[cfg(feature = "sqlx")]
        impl<'r> sqlx::Decode<'r, sqlx::Sqlite> for $name {
            fn decode(value: sqlx::sqlite::SqliteValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
                let stored = <&str as sqlx::Decode<'r, sqlx::Sqlite>>::decode(value)?;
                Ok(stored.parse::<$name>()?)
            }
        }

        impl std::str::FromStr for $name {
            type Err = crate::error::UnknownValue;

            fn from_str(value: &str) -> Result<Self, Self::Err> {
                match value {
                    $($wire => Ok($name::$variant),)+
                    _ => Err(crate::error::UnknownValue {
                        kind: stringify!($name),
                        value: value.to_string(),
                    }),
                }
            }
        }
    };
}
