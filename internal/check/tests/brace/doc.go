// Package brace reads the tests of the brace languages for package testcheck: JavaScript
// and TypeScript (Jest, Vitest, Mocha, node:test, Playwright), Java (JUnit, TestNG) and Rust.
package brace
