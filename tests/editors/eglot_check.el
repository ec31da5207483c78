;;; eglot_check.el --- drive Emacs + eglot headless through the documented config  -*- lexical-binding: t -*-
;;
;; scripts/editors-check.sh loads docs/editors/eglot.el (verbatim, as init.el would) and then
;; this file, in tests/editors/workspace: it opens skill files and reads what eglot shows
;; (flymake diagnostics, hover, completion-at-point, xref, code actions). One line per check,
;; `PASS name: detail' or `FAIL name: why'; exits non-zero if any check failed.
;; Emacs 28.2 with Debian's eglot 1.9 and markdown-mode 2.5.

(require 'cl-lib)
(require 'subr-x)
(require 'markdown-mode)
(require 'eglot)
(require 'xref)

(defvar skilldeck-check-timeout (string-to-number (or (getenv "SKILLDECK_CHECK_TIMEOUT") "30")))
(defvar skilldeck-check-counts (list 0 0 0)) ; passed failed known
(defvar skilldeck-check-known (split-string (or (getenv "SKILLDECK_CHECK_KNOWN") "") "|" t))

(defun skilldeck-say (format-string &rest args)
  (princ (concat (apply #'format format-string args) "\n")))

(defun skilldeck-wait (what probe)
  "Run the event loop until PROBE returns non-nil; signal WHAT after the timeout."
  (let ((deadline (+ (float-time) skilldeck-check-timeout)) value)
    (while (and (not (setq value (funcall probe))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or value (error "timed out waiting for %s" what))))

(defun skilldeck-check (name fn)
  (let* ((outcome (condition-case err (cons t (funcall fn)) (error (cons nil (error-message-string err)))))
         (ok (car outcome)) (detail (cdr outcome)))
    (cond ((member name skilldeck-check-known)
           (if ok
               (progn (cl-incf (nth 1 skilldeck-check-counts))
                      (skilldeck-say "FAIL %s: passes now; remove it from the known failures in scripts/editors-check.sh" name))
             (cl-incf (nth 2 skilldeck-check-counts))
             (skilldeck-say "KNOWN %s: %s" name detail)))
          (ok (cl-incf (nth 0 skilldeck-check-counts))
              (skilldeck-say "PASS %s%s" name (if detail (format ": %s" detail) "")))
          (t (cl-incf (nth 1 skilldeck-check-counts))
             (skilldeck-say "FAIL %s: %s" name detail)))))

(defconst skilldeck-workspace default-directory "Where the checks started: the workspace.")

(defun skilldeck-open (file)
  "Visit FILE (relative to the workspace) as a user does: `find-file', then the command
loop's post-command hook (where `eglot-ensure' connects), then wait for eglot to manage
the buffer."
  (find-file (expand-file-name file skilldeck-workspace))
  (run-hooks 'post-command-hook)
  (skilldeck-wait (format "eglot on %s" file) (lambda () (bound-and-true-p eglot--managed-mode)))
  ;; What a batch Emacs never does by itself: redisplay (flymake, turned on with eglot's
  ;; managed mode before the buffer was shown, starts once it is displayed) and the user's
  ;; next command.
  (run-window-configuration-change-hook)
  (run-hooks 'post-command-hook)
  (current-buffer))

(defun skilldeck-diagnostics (&optional buffer)
  "What flymake shows in BUFFER."
  (with-current-buffer (or buffer (current-buffer))
    (mapconcat #'flymake-diagnostic-text (flymake-diagnostics) " | ")))

(defun skilldeck-goto (line column)
  (goto-char (point-min))
  (forward-line line)
  (forward-char column))

(defun skilldeck-sync ()
  "Send the buffer's pending changes, as eglot does before its own requests."
  (eglot--signal-textDocument/didChange))

(defconst skilldeck-broken ".agents/skills/broken/SKILL.md")

(skilldeck-check
 "diagnostics of an open skill file"
 (lambda ()
   (skilldeck-open skilldeck-broken)
   (skilldeck-wait "SD203 and SD204"
                   (lambda () (let ((text (skilldeck-diagnostics)))
                                (and (string-match-p "kebab-case" text)
                                     (string-match-p "missing required key 'description'" text)))))
   (skilldeck-diagnostics)))

(skilldeck-check
 "hover on a frontmatter key"
 (lambda ()
   (skilldeck-open ".dsh/skills/review/SKILL.md")
   (skilldeck-goto 1 1)
   (let* ((hover (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover
                                  (eglot--TextDocumentPositionParams)))
          (contents (plist-get hover :contents))
          (text (if (stringp contents) contents (plist-get contents :value))))
     (unless (and (stringp text) (string-match-p "identifier" text))
       (error "no key documentation: %S" hover))
     (replace-regexp-in-string "\n" " " (substring text 0 (min 60 (length text)))))))

;; Issue #41.11: what eglot shows of a hover and of a completion item's documentation,
;; made as eglot makes it (`eglot--hover-info', `eglot--format-markup': Markdown through
;; markdown-mode's `gfm-view-mode', plain text as text) and read as a buffer shows it (the
;; default `buffer-invisibility-spec' hides every invisible part): no Markdown marks (bold,
;; fences, headings; a backtick inside a code block is the catalog line's own text).
(defun skilldeck-visible (string)
  "STRING as the echo area or a doc buffer shows it: without its invisible parts."
  (let ((pos 0) (end (length string)) (parts nil))
    (while (< pos end)
      (let ((next (next-single-property-change pos 'invisible string end)))
        (unless (get-text-property pos 'invisible string)
          (push (substring-no-properties string pos next) parts))
        (setq pos next)))
    (apply #'concat (nreverse parts))))

(defun skilldeck-no-marks (what shown)
  "SHOWN, or an error naming WHAT when it still carries Markdown's marks."
  (when (string-match "\\*\\*\\|^```\\|^#+ " shown)
    (error "%s shows Markdown marks (%S at %d): %s" what (match-string 0 shown) (match-beginning 0) shown))
  shown)

(skilldeck-check
 "hover and completion docs as eglot shows them carry no Markdown marks"
 (lambda ()
   (skilldeck-open ".dsh/skills/review/SKILL.md")
   (skilldeck-goto 1 1)
   (let* ((hover (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover
                                  (eglot--TextDocumentPositionParams)))
          (shown (skilldeck-visible (eglot--hover-info (plist-get hover :contents)))))
     (unless (string-match-p "review" shown)
       (error "the hover does not name the skill: %S" shown))
     (skilldeck-no-marks "the hover" shown)
     (skilldeck-goto 3 0)
     (insert "us\n")
     (backward-char 1)
     (skilldeck-sync)
     (let* ((result (jsonrpc-request (eglot--current-server-or-lose) :textDocument/completion
                                     (eglot--CompletionParams)))
            (items (if (vectorp result) result (plist-get result :items)))
            (item (cl-find "user-invocable" items :key (lambda (i) (plist-get i :label)) :test #'equal))
            (resolved (if (and item (not (plist-get item :documentation)))
                          (jsonrpc-request (eglot--current-server-or-lose) :completionItem/resolve item)
                        item))
            (doc (and resolved (plist-get resolved :documentation))))
       (delete-region (line-beginning-position) (1+ (line-end-position)))
       (skilldeck-sync)
       (unless doc
         (error "no documentation for user-invocable: %S" item))
       (let ((doc-shown (skilldeck-visible (eglot--format-markup doc))))
         (skilldeck-no-marks "the completion documentation" doc-shown)
         (format "%s | %s" (replace-regexp-in-string "\n" " " (substring shown 0 (min 60 (length shown))))
                 (replace-regexp-in-string "\n" " " (substring doc-shown 0 (min 60 (length doc-shown))))))))))

(skilldeck-check
 "completion of a frontmatter key, in an unsaved edit"
 (lambda ()
   (skilldeck-open ".dsh/skills/review/SKILL.md")
   (skilldeck-goto 3 0)
   (insert "us\n")
   (backward-char 1)
   (skilldeck-sync)
   (let* ((capf (eglot-completion-at-point))
          (labels (all-completions "us" (nth 2 capf))))
     (delete-region (line-beginning-position) (1+ (line-end-position)))
     (skilldeck-sync)
     (unless (member "user-invocable" labels)
       (error "no user-invocable among %S" labels))
     (format "%s" labels))))

(skilldeck-check
 "definition across layers (the .agents copy leads to the .dsh winner)"
 (lambda ()
   (skilldeck-open ".agents/skills/review/SKILL.md")
   (skilldeck-goto 1 8)
   (let* ((items (xref-backend-definitions 'eglot (xref-backend-identifier-at-point 'eglot)))
          (files (mapcar (lambda (item) (xref-location-group (xref-item-location item))) items)))
     (unless (cl-some (lambda (file) (string-match-p "/\\.dsh/skills/review/SKILL\\.md\\'" file)) files)
       (error "no location in .dsh: %S" files))
     (mapconcat (lambda (file) (replace-regexp-in-string "^.*/ws/" "" file)) files " "))))

(skilldeck-check
 "a quick fix (SD204: add a description)"
 (lambda ()
   (skilldeck-open skilldeck-broken)
   (skilldeck-wait "SD204" (lambda () (string-match-p "missing required key" (skilldeck-diagnostics))))
   (let* ((actions (eglot-code-actions (point-min) (point-max)))
          (fix (cl-find-if (lambda (a) (and (plist-get a :edit)
                                            (string-match-p "description" (downcase (plist-get a :title)))))
                           actions)))
     (unless fix
       (error "no fix among %S" (mapcar (lambda (a) (plist-get a :title)) actions)))
     (eglot--apply-workspace-edit (plist-get fix :edit))
     (unless (string-match-p "\ndescription: " (buffer-string))
       (error "the fix left no description: %s" (buffer-string)))
     (skilldeck-sync)
     (skilldeck-wait "SD204 to go" (lambda () (not (string-match-p "missing required key" (skilldeck-diagnostics)))))
     (plist-get fix :title))))

(skilldeck-check
 "an unsaved edit changes another open file's findings"
 (lambda ()
   (let ((notes (skilldeck-open ".dsh/skills/notes/SKILL.md")))
     (when (string-match-p "changelog" (skilldeck-diagnostics notes))
       (error "a finding about /changelog before the edit: %s" (skilldeck-diagnostics notes)))
     (skilldeck-open ".dsh/skills/changelog/SKILL.md")
     (skilldeck-goto 1 0)
     (delete-region (line-beginning-position) (line-end-position))
     (insert "name: changelog-old")
     ;; eglot sends the change once Emacs is idle (`eglot-send-changes-idle-time'), which a
     ;; batch Emacs never is: send it as that timer would. notes mentions /changelog, which
     ;; now names no skill: SD704 on notes, never saved.
     (skilldeck-sync)
     (skilldeck-wait "the unknown /changelog mention on notes"
                     (lambda () (string-match-p "changelog" (skilldeck-diagnostics notes))))
     (skilldeck-diagnostics notes))))

;; eglot gives a file outside every project a server of its own (a transient project: the
;; file's folder), so a skill of the user's own is judged there, with the user roots and
;; without the project's skills (docs/editors.md says so).
(skilldeck-check
 "a skill of the user's own (~/.agents/skills) gets its findings"
 (lambda ()
   (skilldeck-open "~/.agents/skills/mine/SKILL.md")
   (skilldeck-wait "SD204 on the user skill"
                   (lambda () (string-match-p "missing required key" (skilldeck-diagnostics))))
   (format "%s (project %s)" (skilldeck-diagnostics)
           (eglot--project-nickname (eglot--current-server-or-lose)))))

(skilldeck-say "%d passed, %d failed, %d known to fail"
               (nth 0 skilldeck-check-counts) (nth 1 skilldeck-check-counts) (nth 2 skilldeck-check-counts))
(kill-emacs (if (> (nth 1 skilldeck-check-counts) 0) 1 0))
