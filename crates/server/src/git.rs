//! Real git data, read with the `git` binary from repositories this server can reach: a local
//! path or a `file://` URL under one of the folders it was given (`Repositories`). Remote
//! repositories are out of reach (no network here): asking for them is an error that says so,
//! never an empty list.

use std::path::{Path, PathBuf};
use std::process::Command;

use chrono::{DateTime, Utc};
use platform_api::{Commit, CommitChanges};

/// At most this many commits are listed (spec 8).
pub const COMMITS_MAX: usize = 100;

/// At most this many repositories are listed.
pub const REPOSITORIES_MAX: usize = 500;

/// Why commits could not be read.
#[derive(Debug)]
pub enum GitError {
    /// The URL is not a local path or `file://` URL.
    Unreachable(String),
    /// A local path outside the allowed folders, or one that does not exist: the same words for
    /// both, so that callers cannot learn what the server's disk holds.
    Refused(String),
    /// `git` failed, or the path is not a repository, or the commit is unknown.
    Failed(String),
}

impl std::fmt::Display for GitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GitError::Unreachable(url) => write!(
                f,
                "This server cannot reach the repository {url}: it reads only local paths and file:// URLs."
            ),
            GitError::Refused(url) => write!(
                f,
                "This server does not read the repository {url}: it reads only the repositories under the folders it was given."
            ),
            GitError::Failed(reason) => write!(f, "The repository could not be read: {reason}"),
        }
    }
}

impl std::error::Error for GitError {}

impl From<GitError> for crate::error::ApiError {
    fn from(error: GitError) -> Self {
        let code = match error {
            GitError::Unreachable(_) | GitError::Refused(_) => "REPOSITORY_UNREACHABLE",
            GitError::Failed(_) => "REPOSITORY_ERROR",
        };
        crate::error::ApiError::unanswerable(code, error.to_string())
    }
}

/// The local path a repository URL names: an absolute path, or a `file://` URL of one.
fn local_path(url: &str) -> Option<PathBuf> {
    let path = url.strip_prefix("file://").unwrap_or(url);
    path.starts_with('/').then(|| PathBuf::from(path))
}

/// The folders whose repositories the server reads for its callers (`--git-root`, and the
/// demo's repositories).
#[derive(Clone, Debug, Default)]
pub struct Repositories {
    roots: Vec<PathBuf>,
}

/// Where a repository is, for this server.
#[derive(Debug, PartialEq)]
pub enum Location {
    /// Not on this machine: out of reach.
    Remote,
    /// Under one of the allowed folders, links resolved.
    Local(PathBuf),
}

impl Repositories {
    pub fn new(roots: Vec<PathBuf>) -> Self {
        Self { roots }
    }

    /// Where the repository at `url` is; a local path outside the allowed folders (after its
    /// links are resolved) or one that does not exist is refused.
    pub fn locate(&self, url: &str) -> Result<Location, GitError> {
        let Some(path) = local_path(url) else {
            return Ok(Location::Remote);
        };
        let refused = || GitError::Refused(url.to_string());
        let real = std::fs::canonicalize(&path).map_err(|_| refused())?;
        let inside = self
            .roots
            .iter()
            .filter_map(|root| std::fs::canonicalize(root).ok())
            .any(|root| real.starts_with(root));
        inside.then_some(Location::Local(real)).ok_or_else(refused)
    }

    /// The repositories directly under the allowed folders, by folder name (the first folder's
    /// when two share one), at most `REPOSITORIES_MAX`.
    pub fn listed(&self) -> Vec<(String, PathBuf)> {
        let mut found: Vec<(String, PathBuf)> = Vec::new();
        for root in self
            .roots
            .iter()
            .filter_map(|root| std::fs::canonicalize(root).ok())
        {
            let Ok(entries) = std::fs::read_dir(&root) else {
                continue;
            };
            let mut repositories: Vec<(String, PathBuf)> = entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| !path.is_symlink() && path.join(".git").is_dir())
                .filter_map(|path| {
                    let name = path.file_name()?.to_str()?.to_string();
                    Some((name, path))
                })
                .collect();
            repositories.sort();
            for (name, path) in repositories {
                if found.len() < REPOSITORIES_MAX && found.iter().all(|(n, _)| *n != name) {
                    found.push((name, path));
                }
            }
        }
        found
    }

    /// The local repository at `url`: a remote one is out of reach.
    pub fn local(&self, url: &str) -> Result<PathBuf, GitError> {
        match self.locate(url)? {
            Location::Local(path) => Ok(path),
            Location::Remote => Err(GitError::Unreachable(url.to_string())),
        }
    }
}

/// The text of the file `name` in the local repository `folder`, if it is a regular file of at
/// most `most` bytes: opened without following a link (one could point outside the allowed
/// folders) and without waiting on a pipe or a device, then checked to be a regular file.
pub fn read_plain_file(folder: &Path, name: &str, most: u64) -> Option<String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(folder.join(name))
        .ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > most {
        return None;
    }
    let mut text = String::new();
    file.take(most).read_to_string(&mut text).ok()?;
    Some(text)
}

/// What to list: from the tip of `branch` (HEAD when none), or only the commits after (older
/// than) `start_after`, or only `only`.
pub struct CommitQuery<'a> {
    pub branch: Option<&'a str>,
    pub start_after: Option<&'a str>,
    pub only: Option<&'a str>,
}

/// The commits of the repository at `path`, newest first, at most `COMMITS_MAX`.
pub fn commits(path: &Path, query: &CommitQuery) -> Result<Vec<Commit>, GitError> {
    let (revision, limit) = match (query.only, query.start_after) {
        (Some(commit), _) => (commit.to_string(), 1),
        (None, Some(start)) => (format!("{start}^"), COMMITS_MAX),
        (None, None) => (query.branch.unwrap_or("HEAD").to_string(), COMMITS_MAX),
    };
    if revision.starts_with('-') {
        return Err(GitError::Failed(format!("{revision} is not a revision")));
    }
    let log = run(git(path)
        .args(["log", "--decorate=short", &format!("-n{limit}")])
        .arg("--format=%H%x1f%an%x1f%aI%x1f%D%x1f%s")
        .arg(&revision)
        .arg("--"))?;
    Ok(log.lines().filter_map(parse_commit).collect())
}

/// An author of commits: their name and email, and the dates of their first and last commit
/// among those read.
pub struct Author {
    pub name: String,
    pub email: String,
    pub first: DateTime<Utc>,
    pub last: DateTime<Utc>,
}

/// The authors of the last `COMMITS_MAX` commits at the tip of `branch`, each once, most recent
/// first.
pub fn contributors(path: &Path, branch: Option<&str>) -> Result<Vec<Author>, GitError> {
    let revision = revision_of(branch)?;
    let log = run(git(path)
        .args(["log", &format!("-n{COMMITS_MAX}")])
        .arg("--format=%an%x1f%ae%x1f%aI")
        .arg(revision)
        .arg("--"))?;
    let mut authors: Vec<Author> = Vec::new();
    for line in log.lines() {
        let mut fields = line.split('\u{1f}');
        let (Some(name), Some(email), Some(date)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let Ok(at) = DateTime::parse_from_rfc3339(date) else {
            continue;
        };
        let at = at.with_timezone(&Utc);
        match authors.iter_mut().find(|author| author.email == email) {
            // Newest first: each older commit moves the author's first one back.
            Some(author) => author.first = at,
            None => authors.push(Author {
                name: name.to_string(),
                email: email.to_string(),
                first: at,
                last: at,
            }),
        }
    }
    Ok(authors)
}

/// The commits with these full ids, in one call; an error when one is not in the repository.
pub fn describe(path: &Path, ids: &[String]) -> Result<Vec<Commit>, GitError> {
    if let Some(odd) = ids
        .iter()
        .find(|id| !id.chars().all(|c| c.is_ascii_hexdigit()))
    {
        return Err(GitError::Failed(format!("{odd} is not a commit id")));
    }
    let log = run(git(path)
        .args(["log", "--no-walk=unsorted", "--decorate=short"])
        .arg("--format=%H%x1f%an%x1f%aI%x1f%D%x1f%s")
        .args(ids)
        .arg("--"))?;
    Ok(log.lines().filter_map(parse_commit).collect())
}

/// The full id of `revision` (a commit id, whole or abbreviated, a tag, a branch) in the
/// repository at `path`.
pub fn resolve(path: &Path, revision: &str) -> Result<String, GitError> {
    let query = CommitQuery {
        branch: None,
        start_after: None,
        only: Some(revision),
    };
    commits(path, &query)?
        .into_iter()
        .next()
        .map(|commit| commit.git_commit_id)
        .ok_or_else(|| GitError::Failed(format!("{revision} names no commit")))
}

/// The branches of the repository at `path`, by name, and the one its HEAD is on (`None` when
/// detached).
pub fn branches(path: &Path) -> Result<(Vec<String>, Option<String>), GitError> {
    let listing =
        run(git(path).args(["for-each-ref", "--format=%(refname:short)", "refs/heads/"]))?;
    let head = run(git(path).args(["branch", "--show-current"]))?;
    let head = Some(head.trim().to_string()).filter(|head| !head.is_empty());
    Ok((listing.lines().map(str::to_string).collect(), head))
}

/// The paths that differ between the commits `from` and `to` of the repository at `path`.
pub fn changed_paths(path: &Path, from: &str, to: &str) -> Result<Vec<String>, GitError> {
    for id in [from, to] {
        if !id.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(GitError::Failed(format!("{id} is not a commit id")));
        }
    }
    let listing = run(git(path).args(["diff", "--name-only", from, to, "--"]))?;
    Ok(listing.lines().map(str::to_string).collect())
}

/// The latest `count` commits of `branch` (HEAD when none), newest first, each with the paths
/// it changed from its first parent (every path it holds, for a root commit), in one call.
pub fn commits_with_changes(
    path: &Path,
    branch: Option<&str>,
    count: usize,
) -> Result<Vec<CommitChanges>, GitError> {
    let revision = revision_of(branch)?;
    let log = run(git(path)
        .args([
            "log",
            "--decorate=short",
            "--first-parent",
            "-m",
            "--name-only",
        ])
        .arg(format!("-n{count}"))
        .arg("--format=%x1e%H%x1f%an%x1f%aI%x1f%D%x1f%s")
        .arg(revision)
        .arg("--"))?;
    Ok(log
        .split('\u{1e}')
        .filter_map(|record| {
            let mut lines = record.lines();
            let commit = parse_commit(lines.next()?)?;
            let changed_paths = lines
                .filter(|line| !line.is_empty())
                .map(str::to_string)
                .collect();
            Some(CommitChanges {
                commit,
                changed_paths,
            })
        })
        .collect())
}

/// The `.tfvars` files of the repository at `path` under `root` (a path in the repository), at
/// the tip of `branch`: each file's path and content. Every one, or those `wanted` names, in its
/// order (each must exist).
pub fn tfvars_files(
    path: &Path,
    branch: Option<&str>,
    root: Option<&str>,
    wanted: Option<&[String]>,
) -> Result<Vec<(String, String)>, GitError> {
    let revision = revision_of(branch)?;
    let listing = run(git(path)
        .args(["ls-tree", "-r", "--name-only", revision, "--"])
        .arg(tree_path(root)))?;
    let found: Vec<&str> = listing
        .lines()
        .filter(|file| file.ends_with(".tfvars"))
        .collect();
    let files: Vec<&str> = match wanted {
        None => found,
        Some(wanted) => wanted
            .iter()
            .map(|path| {
                found
                    .iter()
                    .find(|file| **file == path.as_str())
                    .copied()
                    .ok_or_else(|| {
                        GitError::Failed(format!("{path} is not a .tfvars file of {revision}"))
                    })
            })
            .collect::<Result<_, _>>()?,
    };
    files
        .into_iter()
        .map(|file| {
            let content = run(git(path).arg("show").arg(format!("{revision}:{file}")))?;
            Ok((file.to_string(), content))
        })
        .collect()
}

/// The file `file` below `root` at the tip of `branch` (HEAD when none): its text, or `None`
/// when that commit has no such file. An unknown branch is an error.
pub fn file_at(
    path: &Path,
    branch: Option<&str>,
    root: Option<&str>,
    file: &str,
) -> Result<Option<String>, GitError> {
    let revision = revision_of(branch)?;
    let root = root.unwrap_or("/").trim_matches('/');
    let file = file.trim().trim_start_matches("./").trim_matches('/');
    let full = if root.is_empty() {
        file.to_string()
    } else {
        format!("{root}/{file}")
    };
    let listed = run(git(path).args(["ls-tree", "--name-only", revision, "--", &full]))?;
    if listed.lines().all(|line| line != full) {
        return Ok(None);
    }
    run(git(path).arg("show").arg(format!("{revision}:{full}"))).map(Some)
}

/// The tip of `branch`, HEAD when none; never an option of git's.
fn revision_of(branch: Option<&str>) -> Result<&str, GitError> {
    let revision = branch.filter(|b| !b.trim().is_empty()).unwrap_or("HEAD");
    if revision.starts_with('-') {
        return Err(GitError::Failed(format!("{revision} is not a revision")));
    }
    Ok(revision)
}

/// `root` (a path in the repository, `/infra`) as git's path below the top: `infra/`, or `.`.
fn tree_path(root: Option<&str>) -> String {
    match root.unwrap_or("/").trim_matches('/') {
        "" => ".".to_string(),
        root => format!("{root}/"),
    }
}

/// The folders directly below `root` at the tip of `branch`, by name.
pub fn directories(
    path: &Path,
    branch: Option<&str>,
    root: Option<&str>,
) -> Result<Vec<String>, GitError> {
    let revision = revision_of(branch)?;
    let listing = run(git(path)
        .args(["ls-tree", "-d", "--name-only", revision, "--"])
        .arg(tree_path(root)))?;
    Ok(listing
        .lines()
        .map(|line| line.rsplit('/').next().unwrap_or(line).to_string())
        .collect())
}

/// The `.tf` files directly below `root` at the tip of `branch` (a terraform module is one
/// folder): each file's path in the repository and its text.
pub fn terraform_files(
    path: &Path,
    branch: Option<&str>,
    root: Option<&str>,
) -> Result<Vec<(String, String)>, GitError> {
    let revision = revision_of(branch)?;
    let listing = run(git(path)
        .args(["ls-tree", "--name-only", revision, "--"])
        .arg(tree_path(root)))?;
    listing
        .lines()
        .filter(|file| file.ends_with(".tf"))
        .map(|file| {
            let content = run(git(path).arg("show").arg(format!("{revision}:{file}")))?;
            Ok((file.to_string(), content))
        })
        .collect()
}

/// The output of a git command, or why it failed.
fn run(command: &mut Command) -> Result<String, GitError> {
    let output = command
        .output()
        .map_err(|error| GitError::Failed(format!("git could not run: {error}")))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        let reason = String::from_utf8_lossy(&output.stderr);
        Err(GitError::Failed(
            reason.lines().next().unwrap_or("git failed").to_string(),
        ))
    }
}

/// `%H %an %aI %D %s` separated by unit separators.
fn parse_commit(line: &str) -> Option<Commit> {
    let mut fields = line.split('\u{1f}');
    let id = fields.next()?.to_string();
    let author = fields.next()?.to_string();
    let date = fields.next()?;
    let decorations = fields.next()?;
    let message = fields.next()?.to_string();
    let tag = decorations
        .split(", ")
        .find_map(|decoration| decoration.strip_prefix("tag: "))
        .map(str::to_string)
        .unwrap_or_default();
    Some(Commit {
        created_at: DateTime::parse_from_rfc3339(date).ok()?.with_timezone(&Utc),
        git_commit_id: id,
        tag,
        message,
        author_name: author,
        author_avatar_url: None,
        commit_page_url: None,
    })
}

/// `git` run in `path`, with no user configuration or prompt in the way.
fn git(path: &Path) -> Command {
    let mut command = Command::new("git");
    command
        .arg("-C")
        .arg(path)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("HOME", path);
    command
}

/// Creates a git repository at `path` with the given commits: each a message and files to write.
pub fn create_repository(path: &Path, commits: &[(&str, &[(&str, &str)])]) -> std::io::Result<()> {
    std::fs::create_dir_all(path)?;
    run_as_demo(path, &["init", "--quiet", "--initial-branch=main"])?;
    for (message, files) in commits {
        commit(path, message, files)?;
    }
    Ok(())
}

/// Writes `files` in the repository at `path` and commits them on its current branch.
pub fn commit(path: &Path, message: &str, files: &[(&str, &str)]) -> std::io::Result<()> {
    for (file, content) in files {
        let file = path.join(file);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(file, content)?;
    }
    run_as_demo(path, &["add", "--all"])?;
    run_as_demo(path, &["commit", "--quiet", "-m", message])
}

/// `git args` in the repository at `path`, as the demo's author.
fn run_as_demo(path: &Path, args: &[&str]) -> std::io::Result<()> {
    let status = git(path)
        .args([
            "-c",
            "user.name=Platform demo",
            "-c",
            "user.email=demo@platform.invalid",
        ])
        .args(args)
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "git {} failed",
            args.join(" ")
        )))
    }
}

/// Starts the branch `name` at the current commit of the repository at `path` (HEAD stays).
pub fn create_branch(path: &Path, name: &str) -> std::io::Result<()> {
    run_as_demo(path, &["branch", name])
}

/// Deletes the branch `name` of the repository at `path`, merged or not.
pub fn delete_branch(path: &Path, name: &str) -> std::io::Result<()> {
    run_as_demo(path, &["branch", "--quiet", "-D", name])
}

/// Tags the current commit of the repository at `path`.
pub fn tag(path: &Path, name: &str) -> std::io::Result<()> {
    run_as_demo(path, &["tag", name])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_repositories_under_the_allowed_folders_are_read() {
        assert_eq!(
            local_path("file:///srv/repo"),
            Some(PathBuf::from("/srv/repo"))
        );
        assert_eq!(local_path("/srv/repo"), Some(PathBuf::from("/srv/repo")));
        assert_eq!(local_path("https://git.example.com/a.git"), None);
        let allowed = tempfile::TempDir::new().unwrap();
        let elsewhere = tempfile::TempDir::new().unwrap();
        let inside = allowed.path().join("web");
        std::fs::create_dir(&inside).unwrap();
        let repositories = Repositories::new(vec![allowed.path().to_path_buf()]);
        let remote = repositories
            .local("https://git.example.com/a.git")
            .unwrap_err();
        assert!(remote.to_string().contains("cannot reach"));
        assert_eq!(
            repositories
                .locate(&format!("file://{}", inside.display()))
                .unwrap(),
            Location::Local(std::fs::canonicalize(&inside).unwrap())
        );
        // Outside, missing, or reached through `..` or a link: the same refusal.
        let link = allowed.path().join("link");
        std::os::unix::fs::symlink(elsewhere.path(), &link).unwrap();
        let outside = [
            elsewhere.path().display().to_string(),
            format!("{}/missing", allowed.path().display()),
            format!("{}/web/../..", allowed.path().display()),
            link.display().to_string(),
            "/etc".to_string(),
        ];
        let messages: Vec<String> = outside
            .iter()
            .map(|url| {
                let refused = repositories.local(url).unwrap_err();
                assert!(matches!(refused, GitError::Refused(_)), "{url}");
                refused.to_string().replace(url.as_str(), "URL")
            })
            .collect();
        assert!(
            messages.iter().all(|message| *message == messages[0]),
            "{messages:?}"
        );
    }

    #[test]
    fn commits_come_newest_first_with_their_tags() {
        let dir = tempfile::TempDir::new().unwrap();
        create_repository(
            dir.path(),
            &[("first", &[("a.txt", "1")]), ("second", &[("a.txt", "2")])],
        )
        .unwrap();
        tag(dir.path(), "v1.0").unwrap();
        let path = dir.path();
        let all = commits(
            path,
            &CommitQuery {
                branch: Some("main"),
                start_after: None,
                only: None,
            },
        )
        .unwrap();
        let messages: Vec<_> = all.iter().map(|c| c.message.as_str()).collect();
        assert_eq!(messages, ["second", "first"]);
        assert_eq!(all[0].tag, "v1.0");
        assert_eq!(all[1].tag, "");
        assert_eq!(all[0].author_name, "Platform demo");
        let older = commits(
            path,
            &CommitQuery {
                branch: None,
                start_after: Some(&all[0].git_commit_id),
                only: None,
            },
        )
        .unwrap();
        assert_eq!(older.len(), 1);
        assert_eq!(older[0].message, "first");
        let one = commits(
            path,
            &CommitQuery {
                branch: None,
                start_after: None,
                only: Some(&all[1].git_commit_id),
            },
        )
        .unwrap();
        assert_eq!(one[0].git_commit_id, all[1].git_commit_id);
        assert!(matches!(
            commits(
                path,
                &CommitQuery {
                    branch: None,
                    start_after: None,
                    only: Some("deadbeef")
                }
            ),
            Err(GitError::Failed(_))
        ));
    }

    #[test]
    fn each_commit_comes_with_the_paths_it_changed() {
        let dir = tempfile::TempDir::new().unwrap();
        create_repository(
            dir.path(),
            &[
                ("first", &[("a.txt", "1"), ("docs/b.md", "1")]),
                ("second", &[("docs/b.md", "2")]),
                ("third", &[("a.txt", "3"), ("web/c.js", "3")]),
            ],
        )
        .unwrap();
        let listed = commits_with_changes(dir.path(), Some("main"), 10).unwrap();
        let seen: Vec<(&str, Vec<&str>)> = listed
            .iter()
            .map(|c| {
                let paths = c.changed_paths.iter().map(String::as_str).collect();
                (c.commit.message.as_str(), paths)
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("third", vec!["a.txt", "web/c.js"]),
                ("second", vec!["docs/b.md"]),
                ("first", vec!["a.txt", "docs/b.md"]),
            ]
        );
        let (newest, oldest) = (&listed[0].commit, &listed[2].commit);
        assert_eq!(
            changed_paths(dir.path(), &oldest.git_commit_id, &newest.git_commit_id).unwrap(),
            ["a.txt", "docs/b.md", "web/c.js"]
        );
        assert!(changed_paths(dir.path(), "--output=x", &newest.git_commit_id).is_err());
    }
}
