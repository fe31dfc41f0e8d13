//! What changes between two versions of a service, in three parts read together: the code (the
//! commits between the two, an image tag or a chart version from → to), its settings (each field
//! from its value before to its value after, from the audit log) and the variables and secrets of
//! every scope that reaches it (a secret by its name only). Used before a deploy (from what runs to
//! the target) and in a history (from one deployment to another).

use chrono::{DateTime, Utc};
use leptos::prelude::*;
use platform_api::review::{code_change, CodeChange, ConfigurationChanges, SettingChange};
use platform_api::{short_id, Commit, DeploymentHistoryEntry, ServiceType, WireEnum};
use serde_json::Value;
use uuid::Uuid;

use crate::api::review::Place;
use crate::api::service::ServiceAnswer;
use crate::api::use_api;
use crate::components::commit_text::CommitText;
use crate::components::format::counted;
use crate::components::loaded::loaded;
use crate::components::relative_time::RelativeTime;
use crate::state::resource::resource;

/// One version of a service: its commit, image tag or chart version, as a deployment names them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Version {
    pub commit: Option<String>,
    pub tag: Option<String>,
    pub chart: Option<String>,
}

impl Version {
    /// What a deploy of `record` as configured runs: `commit`, else its branch's latest; its
    /// image tag or chart version.
    pub fn configured(record: &ServiceAnswer, commit: Option<String>) -> Self {
        Version {
            commit,
            tag: record.image_tag(),
            chart: record.chart_version(),
        }
    }

    pub fn of(entry: &DeploymentHistoryEntry) -> Self {
        let details = &entry.details;
        Version {
            commit: details.commit.as_ref().map(|c| c.git_commit_id.clone()),
            tag: details.tag.clone(),
            chart: details
                .repository
                .as_ref()
                .and_then(|chart| chart.chart_version.clone()),
        }
    }
}

/// The version compared from, and since when its configuration counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Baseline {
    pub version: Version,
    pub since: DateTime<Utc>,
}

impl Baseline {
    pub fn of(entry: &DeploymentHistoryEntry) -> Self {
        Baseline {
            version: Version::of(entry),
            since: entry.auditing_data.created_at,
        }
    }
}

/// Where the version compared from comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum ComparedFrom {
    /// What the service runs: its latest successful deployment, read.
    Running,
    /// A deployment already known; `None` when there is none before.
    Known(Option<Baseline>),
}

#[component]
pub fn ChangeSummary(
    kind: ServiceType,
    id: Uuid,
    place: Place,
    from: ComparedFrom,
    /// The version after; its commit `None` for the branch's latest.
    to: Version,
    /// Where the configuration changes stop counting (the later deployment's start), or now.
    #[prop(default = None)]
    until: Option<DateTime<Utc>>,
    /// Whether the service is built from git (its branch's commits read).
    git: bool,
) -> impl IntoView {
    let api = use_api();
    let baseline = resource(move || {
        let from = from.clone();
        async move {
            match from {
                ComparedFrom::Known(baseline) => Ok(baseline),
                ComparedFrom::Running => Ok(api
                    .running_deployment(kind, id)
                    .await?
                    .as_ref()
                    .map(Baseline::of)),
            }
        }
    });
    let code = resource(move || {
        let to = to.clone();
        async move {
            let commits = async {
                if git {
                    api.service_commits(kind, id).await.map(Some)
                } else {
                    Ok(None)
                }
            };
            let (commits, baseline) = futures::join!(commits, async { baseline.await });
            let (mut commits, baseline) = (commits?, baseline?);
            // Older pages, where what runs (or a rollback's target) is further back.
            if let Some(commits) = commits.as_mut() {
                let wanted: Vec<String> = baseline
                    .as_ref()
                    .and_then(|b| b.version.commit.clone())
                    .into_iter()
                    .chain(to.commit.clone())
                    .collect();
                api.commits_reaching(kind, id, commits, &wanted).await?;
            }
            Ok(Code::of(kind, baseline, commits, to))
        }
    });
    let configuration = resource(move || async move {
        match baseline.await? {
            Some(baseline) => {
                api.configuration_changes(place, id, baseline.since, until)
                    .await
            }
            None => Ok(ConfigurationChanges::default()),
        }
    });
    let up_to_date = move || {
        let same = code
            .get()
            .and_then(Result::ok)
            .is_some_and(|code| code.same());
        let unchanged = configuration
            .get()
            .and_then(Result::ok)
            .is_some_and(|changes| changes.is_empty());
        same && unchanged
    };
    view! {
        <div class="change-summary">
            <Show when=up_to_date>
                <p class="notice notice--success" role="status">
                    "Already up to date: deploying again restarts the same version with the same configuration."
                </p>
            </Show>
            <section class="change-summary__part" aria-labelledby=format!("code-{id}")>
                <h3 id=format!("code-{id}")>"Code"</h3>
                {loaded(code, 3, |code| code.view())}
            </section>
            <section class="change-summary__part" aria-labelledby=format!("configuration-{id}")>
                <h3 id=format!("configuration-{id}")>"Settings and variables"</h3>
                {loaded(configuration, 3, configuration_view)}
            </section>
        </div>
    }
}

/// The code part, once the commits and the version compared from are known.
#[derive(Clone, Debug, PartialEq)]
enum Code {
    /// Nothing deployed before: the target is the first.
    First(Option<Commit>),
    Commits {
        change: CodeChange,
        running: String,
    },
    /// An image tag or a chart version, from → to.
    Version {
        what: &'static str,
        from: String,
        to: String,
    },
    /// A kind whose version is not a commit, a tag or a chart (a database), or unknown.
    Nothing,
}

impl Code {
    fn of(
        kind: ServiceType,
        baseline: Option<Baseline>,
        commits: Option<Vec<Commit>>,
        to: Version,
    ) -> Self {
        let Some(baseline) = baseline else {
            let target = commits.and_then(|commits| match &to.commit {
                Some(id) => commits.into_iter().find(|c| &c.git_commit_id == id),
                None => commits.into_iter().next(),
            });
            return Code::First(target);
        };
        if let (Some(commits), Some(running)) = (commits, baseline.version.commit) {
            let target = to
                .commit
                .or_else(|| commits.first().map(|c| c.git_commit_id.clone()))
                .unwrap_or_else(|| running.clone());
            return Code::Commits {
                change: code_change(&commits, &running, &target),
                running,
            };
        }
        let (what, from, to) = match kind {
            ServiceType::Helm => ("Chart version", baseline.version.chart, to.chart),
            _ => ("Image tag", baseline.version.tag, to.tag),
        };
        match (from, to) {
            (Some(from), Some(to)) => Code::Version { what, from, to },
            _ => Code::Nothing,
        }
    }

    fn same(&self) -> bool {
        match self {
            Code::Commits { change, .. } => *change == CodeChange::Same,
            Code::Version { from, to, .. } => from == to,
            Code::Nothing => true,
            Code::First(_) => false,
        }
    }

    fn view(self) -> AnyView {
        match self {
            Code::First(target) => view! {
                <p>"The first deployment."</p>
                {target.map(|commit| view! { <CommitList commits=vec![commit]/> })}
            }
            .into_any(),
            Code::Commits { change, running } => match change {
                CodeChange::Same => view! {
                    <p>"The same commit as now: "<span class="mono">{short_id(&running)}</span>"."</p>
                }
                .into_any(),
                CodeChange::Ahead(commits) => view! {
                    <p class="change-summary__count">{count(commits.len(), "ahead")}</p>
                    <CommitList commits/>
                }
                .into_any(),
                CodeChange::Back(commits) => view! {
                    <p class="change-summary__count">{format!("Goes back {}: these are undone.", counted(commits.len(), "commit"))}</p>
                    <CommitList commits/>
                }
                .into_any(),
                CodeChange::Unknown => view! {
                    <p>"The commit running now ("<span class="mono">{short_id(&running)}</span>
                    ") is not among the branch's latest commits: the commits between cannot be listed."</p>
                }
                .into_any(),
            },
            Code::Version { what, from, to } if from == to => {
                view! { <p>{format!("{what} {from}, unchanged.")}</p> }.into_any()
            }
            Code::Version { what, from, to } => view! {
                <p>{what}" "<span class="mono">{from}</span>" → "<span class="mono">{to}</span></p>
            }
            .into_any(),
            Code::Nothing => view! { <p class="muted">"No code: only its configuration."</p> }.into_any(),
        }
    }
}

fn count(commits: usize, direction: &str) -> String {
    format!("{} {direction}", counted(commits, "commit"))
}

#[component]
fn CommitList(commits: Vec<Commit>) -> impl IntoView {
    view! {
        <ol class="commits" aria-label="Commits">
            {commits.into_iter().map(|commit| {
                let id = commit.git_commit_id.clone();
                view! {
                    <li class="commit" data-commit=id>
                        <CommitText commit/>
                    </li>
                }
            }).collect_view()}
        </ol>
    }
}

fn configuration_view(changes: ConfigurationChanges) -> AnyView {
    if changes.is_empty() {
        return view! { <p class="muted">"No change to its settings or variables."</p> }.into_any();
    }
    let latest = changes.latest.clone();
    let incomplete = changes.incomplete;
    view! {
        {incomplete.then(|| view! {
            <p class="notice notice--warning">"Only the latest thousand changes were read: the values before are those after older changes not shown."</p>
        })}
        {(!changes.settings.is_empty()).then(|| view! {
            <table class="table change-summary__settings">
                <caption class="visually-hidden">"Settings changed"</caption>
                <thead><tr><th scope="col">"Setting"</th><th scope="col">"Before"</th><th scope="col">"After"</th></tr></thead>
                <tbody>
                    {changes.settings.into_iter().map(setting_row).collect_view()}
                </tbody>
            </table>
        })}
        {(!changes.variables.is_empty()).then(|| view! {
            <ul class="change-summary__variables" aria-label="Variables and secrets changed">
                {changes.variables.into_iter().map(|variable| {
                    let scope = match variable.scope.as_str() {
                        "PROJECT" => "project",
                        "ENVIRONMENT" => "environment",
                        _ => "service",
                    };
                    let what = if variable.secret { "secret" } else { "variable" };
                    let values = (!variable.secret).then(|| match (variable.before, variable.after) {
                        (Some(before), Some(after)) => format!(": {before} → {after}"),
                        (None, Some(after)) => format!(" = {after}"),
                        _ => String::new(),
                    });
                    let (key, shown_key) = (variable.key.clone(), variable.key);
                    view! {
                        <li data-variable=key>
                            <span class="mono">{shown_key}</span>
                            {format!(" ({what}, {scope}) {}", variable.fate.label())}
                            {values}
                        </li>
                    }
                }).collect_view()}
            </ul>
        })}
        {latest.map(|(at, by)| view! {
            <p class="muted">"Last change by "{by}" "<RelativeTime at/></p>
        })}
    }
    .into_any()
}

fn setting_row(setting: SettingChange) -> impl IntoView {
    let name = match setting.part {
        Some(part) => format!("{} · {}", part.label(), setting.change.path),
        None => setting.change.path.clone(),
    };
    view! {
        <tr data-setting=setting.change.path.clone()>
            <th scope="row" class="mono">{name}</th>
            <td class="mono">{shown(setting.change.before)}</td>
            <td class="mono">{shown(setting.change.after)}</td>
        </tr>
    }
}

/// A field's value as a person reads it: text without its quotes, nothing as "—".
pub fn shown(value: Option<Value>) -> String {
    match value {
        None | Some(Value::Null) => "—".into(),
        Some(Value::String(text)) => text,
        Some(other) => other.to_string(),
    }
}
