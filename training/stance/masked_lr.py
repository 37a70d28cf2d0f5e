"""
Multinomial logistic regression whose weights may be masked per class (numpy + scipy L-BFGS).

Why masked: a sentence should refute a claim only for a reason a reader can point at. SciFact's
contradicting claims are near-copies of their evidence with one word changed, so an unconstrained
model learns "high word overlap = contradiction" and calls the sentence that proves a news claim
"contradicting". The refute class therefore reads only the contradiction cues (and their products with
coverage); the other classes read every feature.
"""
import numpy as np
from scipy.optimize import minimize


def fit(X, y, w, mask, l2=1e-3, classes=3):
    n, d = X.shape
    Xb = np.hstack([X, np.ones((n, 1))])
    M = np.hstack([mask, np.ones((classes, 1))])
    Y = np.eye(classes)[y]
    sw = w / w.sum()

    def f(theta):
        W = theta.reshape(classes, d + 1) * M
        Z = Xb @ W.T
        Z -= Z.max(1, keepdims=True)
        logp = Z - np.log(np.exp(Z).sum(1, keepdims=True))
        loss = -(sw[:, None] * Y * logp).sum() + l2 * (W[:, :-1] ** 2).sum()
        P = np.exp(logp)
        G = ((P - Y) * sw[:, None]).T @ Xb
        G[:, :-1] += 2 * l2 * W[:, :-1]
        return loss, (G * M).ravel()

    r = minimize(f, np.zeros(classes * (d + 1)), jac=True, method="L-BFGS-B", options={"maxiter": 3000})
    W = r.x.reshape(classes, d + 1) * M
    return W[:, :-1], W[:, -1]


def predict_proba(coef, intercept, X):
    Z = X @ coef.T + intercept
    Z -= Z.max(1, keepdims=True)
    E = np.exp(Z)
    return E / E.sum(1, keepdims=True)
