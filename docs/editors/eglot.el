;; skilldeck in Emacs 28+ with eglot (init.el). docs/editors.md; checked by scripts/editors-check.sh.
;; Needs markdown-mode (MELPA, or Debian's elpa-markdown-mode) and eglot (built in from
;; Emacs 29; Debian's elpa-eglot or GNU ELPA before).
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(markdown-mode . ("skilldeck" "serve"))))
;; Start it for skill files only: the server answers nothing for other Markdown.
(defun skilldeck-eglot-maybe ()
  (when (and buffer-file-name
             (string-match-p "\\(/SKILL\\.md\\'\\|/\\.\\(dsh\\|agents\\)/skills/\\)" buffer-file-name))
    (eglot-ensure)))
(add-hook 'markdown-mode-hook #'skilldeck-eglot-maybe)
