// The developer portal's page script (docs/PORTAL.md). It signs in to the user pool
// directly (InitiateAuth, USER_PASSWORD_AUTH) and calls the portal API with the ID token.
// The token and a new key's value live in this closure only: never in storage, a cookie
// or a URL. Every text reaches the DOM as textContent, never as HTML.
(function () {
  'use strict';

  var PERMISSION = 'settings:api';
  var config = JSON.parse(document.getElementById('portal-config').textContent);
  // Under an API Gateway stage (/prod/portal/) the API and the docs are below the same prefix.
  var prefix = location.pathname.replace(/\/+$/, '').replace(/\/portal$/, '');
  var apiBase = prefix + '/portal/api/';
  var session = null; // { idToken, email, permissions }
  var selectedKeyId = null;

  var $ = function (id) {
    return document.getElementById(id);
  };
  $('docs-link').href = prefix + '/docs';

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function show(id, visible) {
    $(id).hidden = !visible;
  }

  function say(text) {
    $('status').textContent = text;
  }

  function when(iso) {
    return iso
      ? new Date(iso)
          .toISOString()
          .replace('T', ' ')
          .replace(/\.\d+Z$/, ' UTC')
      : '—';
  }

  // ---- the user pool ---------------------------------------------------------------

  function signIn(email, password) {
    return fetch(config.cognitoEndpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-amz-json-1.1', 'X-Amz-Target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
      body: JSON.stringify({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: config.clientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
      credentials: 'omit',
      cache: 'no-store',
    }).then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) throw new Error(body.message || 'Sign-in failed (HTTP ' + response.status + ')');
        if (!body.AuthenticationResult) throw new Error('Your password must be changed first (' + (body.ChallengeName || 'challenge') + '): ask an operator.');
        return body.AuthenticationResult.IdToken;
      });
    });
  }

  /** The token's claims, for display and for choosing the view; the portal API checks the token itself. */
  function claimsOf(idToken) {
    var payload = idToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    var json = decodeURIComponent(
      Array.prototype.map
        .call(atob(payload), function (c) {
          return '%' + ('00' + c.charCodeAt(0).toString(16)).slice(-2);
        })
        .join(''),
    );
    return JSON.parse(json);
  }

  // ---- the portal API --------------------------------------------------------------

  function api(method, path, params) {
    var query = method === 'GET' && params ? '?' + new URLSearchParams(params).toString() : '';
    var init = { method: method, headers: { Authorization: 'Bearer ' + session.idToken }, credentials: 'omit', cache: 'no-store' };
    if (method === 'POST') {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(params || {});
    }
    return fetch(apiBase + path + query, init).then(function (response) {
      return response.json().then(
        function (body) {
          if (response.status === 401) signOut('Your session has ended: sign in again.');
          if (response.status === 403 && body && body.message && body.message.indexOf(PERMISSION) >= 0) showNoPermission();
          if (!response.ok) {
            var error = new Error((body && body.message) || 'HTTP ' + response.status);
            error.status = response.status;
            error.code = body && body.error;
            throw error;
          }
          return body;
        },
        function () {
          var error = new Error('HTTP ' + response.status);
          error.status = response.status;
          throw error;
        },
      );
    });
  }

  // ---- views -----------------------------------------------------------------------

  function signOut(message) {
    session = null;
    selectedKeyId = null;
    $('new-api-key').textContent = '';
    show('new-key', false);
    show('portal', false);
    show('no-permission', false);
    show('signed-in-as', false);
    show('sign-out', false);
    show('sign-in', true);
    $('password').value = '';
    say(message || 'Signed out.');
  }

  function showNoPermission() {
    show('portal', false);
    show('no-permission', true);
  }

  function onSignedIn(idToken) {
    var claims = claimsOf(idToken);
    var groups = claims['cognito:groups'] || [];
    session = { idToken: idToken, email: claims.email, permissions: Array.isArray(groups) ? groups : String(groups).split(',') };
    $('password').value = '';
    show('sign-in', false);
    $('signed-in-as').textContent = 'Signed in as ' + session.email;
    show('signed-in-as', true);
    show('sign-out', true);
    if (session.permissions.indexOf(PERMISSION) < 0) {
      showNoPermission();
      say('Signed in as ' + session.email + ', without ' + PERMISSION + '.');
      return;
    }
    show('portal', true);
    say('Signed in as ' + session.email + '.');
    loadKeys();
    loadWebhooks();
  }

  $('sign-in-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var email = $('email').value.trim();
    var password = $('password').value;
    $('sign-in-error').textContent = '';
    if (!email || !password) {
      $('sign-in-error').textContent = 'Enter your email and password.';
      return;
    }
    signIn(email, password).then(onSignedIn, function (error) {
      $('sign-in-error').textContent = error.message;
    });
  });

  $('sign-out').addEventListener('click', function () {
    signOut();
  });

  // ---- keys ------------------------------------------------------------------------

  $('create-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var name = $('key-name').value.trim();
    var expires = $('key-expires').value;
    $('create-error').textContent = '';
    if (!name) {
      $('create-error').textContent = 'Give the key a name, to tell it apart later.';
      return;
    }
    var params = { name: name };
    if (expires) params.expiresAt = expires + 'T23:59:59Z';
    api('POST', 'keys', params).then(
      function (created) {
        $('new-api-key').textContent = created.apiKey;
        $('copy-result').textContent = '';
        show('new-key', true);
        $('key-name').value = '';
        $('key-expires').value = '';
        selectedKeyId = created.keyId;
        say('Key ' + created.name + ' created.');
        loadKeys();
        $('copy-key').focus();
      },
      function (error) {
        $('create-error').textContent = error.message;
      },
    );
  });

  $('copy-key').addEventListener('click', function () {
    var value = $('new-api-key').textContent;
    navigator.clipboard.writeText(value).then(
      function () {
        $('copy-result').textContent = 'Copied.';
      },
      function () {
        // No clipboard access: select the key so that the user can copy it themselves.
        var range = document.createRange();
        range.selectNodeContents($('new-api-key'));
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(range);
        $('copy-result').textContent = 'Copying was refused by the browser: the key is selected, copy it with Ctrl+C.';
      },
    );
  });

  $('dismiss-key').addEventListener('click', function () {
    $('new-api-key').textContent = '';
    show('new-key', false);
  });

  function loadKeys() {
    return api('GET', 'keys').then(renderKeys, function (error) {
      say('Could not load your keys: ' + error.message);
    });
  }

  function renderKeys(keys) {
    var body = document.querySelector('#keys tbody');
    body.textContent = '';
    keys.sort(function (a, b) {
      return b.createdAt.localeCompare(a.createdAt);
    });
    keys.forEach(function (key) {
      var row = el('tr');
      row.setAttribute('data-testid', 'api-key-row');
      row.setAttribute('data-key-id', key.keyId);
      if (key.keyId === selectedKeyId) row.className = 'selected';
      row.appendChild(el('td', key.name || '(unnamed)'));
      row.appendChild(el('td')).appendChild(el('code', key.prefix + '…'));
      row.appendChild(el('td', when(key.createdAt)));
      row.appendChild(el('td', key.lastUsedAt ? when(key.lastUsedAt) : 'never'));
      row.appendChild(el('td', key.expiresAt ? when(key.expiresAt) : 'never'));
      row.appendChild(el('td', key.status, 'status-' + key.status));
      var actions = row.appendChild(el('td', null, 'actions'));
      actions.appendChild(
        button('Usage', 'secondary', 'Usage and requests of ' + key.name, function () {
          selectKey(key);
        }),
      );
      if (key.status === 'active') {
        actions.appendChild(
          button('Rotate', 'secondary', 'Rotate ' + key.name + ': a new key with the same name, this one revoked', function () {
            rotate(key);
          }),
        );
        actions.appendChild(
          button('Revoke', 'danger', 'Revoke ' + key.name, function () {
            revoke(key);
          }),
        );
      }
      body.appendChild(row);
    });
    show('keys-empty', keys.length === 0);
    var selected = keys.filter(function (key) {
      return key.keyId === selectedKeyId;
    })[0];
    if (selected) selectKey(selected);
  }

  // A row's button is named by its text alone (`Revoke`, as a script or a screen reader looks for it);
  // what it acts on is its description (title), read after the name and shown on hover.
  function button(text, className, description, onClick) {
    var node = el('button', text, className);
    node.type = 'button';
    node.title = description;
    node.addEventListener('click', onClick);
    return node;
  }

  function revoke(key) {
    if (!window.confirm('Revoke ' + key.name + '? Calls with it fail within 10 seconds, and it cannot be restored.')) return;
    api('POST', 'keys/revoke', { keyId: key.keyId }).then(
      function () {
        say('Key ' + key.name + ' revoked: the API refuses it within 10 seconds.');
        loadKeys();
      },
      function (error) {
        say('Could not revoke ' + key.name + ': ' + error.message);
      },
    );
  }

  function rotate(key) {
    if (!window.confirm('Rotate ' + key.name + '? A new key is made with its name, and this one is revoked.')) return;
    api('POST', 'keys/rotate', { keyId: key.keyId }).then(
      function (created) {
        $('new-api-key').textContent = created.apiKey;
        $('copy-result').textContent = '';
        show('new-key', true);
        selectedKeyId = created.keyId;
        say('Key ' + key.name + ' rotated: copy the new key; the old one stops working within 10 seconds.');
        loadKeys();
      },
      function (error) {
        say('Could not rotate ' + key.name + ': ' + error.message);
      },
    );
  }

  // ---- usage and requests of one key -------------------------------------------------

  function selectKey(key) {
    selectedKeyId = key.keyId;
    Array.prototype.forEach.call(document.querySelectorAll('#keys tbody tr'), function (row) {
      row.className = row.getAttribute('data-key-id') === key.keyId ? 'selected' : '';
    });
    $('detail-name').textContent = key.name || key.prefix;
    show('key-detail', true);
    loadDetail();
  }

  function loadDetail() {
    var keyId = selectedKeyId;
    if (!keyId) return;
    api('GET', 'usage', { keyId: keyId }).then(renderUsage, function (error) {
      say('Could not load the usage: ' + error.message);
    });
    api('GET', 'requests', { keyId: keyId }).then(renderRequests, function (error) {
      say('Could not load the requests: ' + error.message);
    });
  }

  // The keys again too: their "last used" moves with the requests.
  $('refresh-detail').addEventListener('click', loadKeys);

  function renderUsage(usage) {
    var body = document.querySelector('#usage tbody');
    body.textContent = '';
    var classes = Object.keys(Object.assign({}, usage.last7Days.byRateClass, usage.last24Hours.byRateClass)).sort();
    classes.forEach(function (rateClass) {
      var row = el('tr');
      row.appendChild(el('th', rateClass)).setAttribute('scope', 'row');
      row.appendChild(el('td', usage.last24Hours.byRateClass[rateClass] || 0));
      row.appendChild(el('td', usage.last7Days.byRateClass[rateClass] || 0));
      body.appendChild(row);
    });
    [
      ['All requests', 'requests'],
      ['Answered 429 (rate limited)', 'throttled'],
    ].forEach(function (line) {
      var row = el('tr');
      row.appendChild(el('th', line[0])).setAttribute('scope', 'row');
      row.appendChild(el('td', usage.last24Hours[line[1]]));
      row.appendChild(el('td', usage.last7Days[line[1]]));
      body.appendChild(row);
    });
    renderChart(usage.daily || []);
  }

  /** One bar a day, the 429s drawn over it; the numbers are in the SVG's title and the table beside it. */
  function renderChart(days) {
    var svgNs = 'http://www.w3.org/2000/svg';
    var width = 320;
    var height = 140;
    var barWidth = width / Math.max(days.length, 1);
    var top = Math.max.apply(
      null,
      days
        .map(function (day) {
          return day.requests;
        })
        .concat([1]),
    );
    var svg = document.createElementNS(svgNs, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + (height + 16));
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height + 16));
    svg.setAttribute('class', 'chart');
    svg.setAttribute('role', 'img');
    var summary = days
      .map(function (day) {
        return day.date + ': ' + day.requests + ' requests, ' + day.throttled + ' answered 429';
      })
      .join('; ');
    svg.setAttribute('aria-label', 'Requests per day: ' + summary);
    var title = document.createElementNS(svgNs, 'title');
    title.textContent = summary;
    svg.appendChild(title);
    days.forEach(function (day, index) {
      [
        ['bar-all', day.requests],
        ['bar-429', day.throttled],
      ].forEach(function (part) {
        var barHeight = (part[1] / top) * height;
        var rect = document.createElementNS(svgNs, 'rect');
        rect.setAttribute('class', part[0]);
        rect.setAttribute('x', String(index * barWidth + 4));
        rect.setAttribute('y', String(height - barHeight));
        rect.setAttribute('width', String(barWidth - 8));
        rect.setAttribute('height', String(barHeight));
        svg.appendChild(rect);
      });
      var label = document.createElementNS(svgNs, 'text');
      label.setAttribute('x', String(index * barWidth + barWidth / 2));
      label.setAttribute('y', String(height + 12));
      label.setAttribute('text-anchor', 'middle');
      label.textContent = day.date.slice(5);
      svg.appendChild(label);
    });
    var holder = $('usage-chart');
    holder.textContent = '';
    holder.appendChild(svg);
  }

  function renderRequests(requests) {
    var body = document.querySelector('#requests tbody');
    body.textContent = '';
    requests.forEach(function (request) {
      var row = el('tr');
      row.setAttribute('data-testid', 'request-row');
      row.appendChild(el('td', when(request.at)));
      row.appendChild(el('td', (request.method ? request.method + ' ' : '') + request.endpoint));
      row.appendChild(el('td', request.status, request.status >= 400 ? 'status-error' : ''));
      row.appendChild(el('td', request.error || ''));
      row.appendChild(el('td', request.latencyMs + ' ms'));
      body.appendChild(row);
    });
    show('requests-empty', requests.length === 0);
  }

  // ---- webhook subscriptions ------------------------------------------------------------

  function loadWebhooks() {
    $('webhooks-note').textContent = '';
    api('GET', 'webhooks').then(renderWebhooks, function (error) {
      $('webhooks').textContent = '';
      $('webhooks-note').textContent = 'Could not load the webhook subscriptions: ' + error.message;
    });
  }

  function renderWebhooks(subscriptions) {
    var holder = $('webhooks');
    holder.textContent = '';
    if (subscriptions.length === 0) $('webhooks-note').textContent = 'No webhook subscriptions on your channels.';
    subscriptions.forEach(function (subscription) {
      var box = holder.appendChild(el('div', null, 'webhook'));
      box.setAttribute('data-testid', 'webhook-row');
      box.appendChild(el('h3', subscription.url));
      box.appendChild(
        el(
          'p',
          'Channel ' +
            subscription.channelId +
            ' · ' +
            (subscription.isActive ? 'active' : 'inactive' + (subscription.disabledReason ? ' (' + subscription.disabledReason + ')' : '')) +
            ' · events: ' +
            subscription.events.join(', ') +
            (subscription.failingSince ? ' · failing since ' + when(subscription.failingSince) : ''),
        ),
      );
      var list = box.appendChild(el('div'));
      box.insertBefore(
        button('Deliveries', 'secondary', 'Deliveries to ' + subscription.url, function () {
          loadDeliveries(subscription, list);
        }),
        list,
      );
    });
  }

  function loadDeliveries(subscription, holder) {
    var ids = { channelId: subscription.channelId, webhookId: subscription.id };
    api('GET', 'webhooks/deliveries', ids).then(
      function (page) {
        var deliveries = page.deliveries;
        holder.textContent = '';
        var table = holder.appendChild(el('table'));
        table.appendChild(el('caption', 'Deliveries to ' + subscription.url + ', newest first'));
        var head = table.appendChild(el('thead')).appendChild(el('tr'));
        ['Event', 'Type', 'Status', 'Attempts', 'Last answer', ''].forEach(function (text) {
          head.appendChild(el('th', text)).setAttribute('scope', 'col');
        });
        var body = table.appendChild(el('tbody'));
        deliveries.forEach(function (delivery) {
          var row = body.appendChild(el('tr'));
          row.setAttribute('data-testid', 'delivery-row');
          row.appendChild(el('td')).appendChild(el('code', delivery.eventId));
          row.appendChild(el('td', delivery.type));
          row.appendChild(el('td', delivery.status, delivery.status === 'failed' ? 'status-error' : ''));
          row.appendChild(el('td', delivery.attempts));
          row.appendChild(el('td', delivery.lastError || (delivery.lastStatusCode === null ? 'no answer' : delivery.lastStatusCode)));
          row.appendChild(el('td')).appendChild(
            button('Redeliver', 'secondary', 'Redeliver ' + delivery.eventId, function () {
              api('POST', 'webhooks/redeliver', Object.assign({ eventId: delivery.eventId }, ids)).then(
                function () {
                  say('Event ' + delivery.eventId + ' queued for delivery again.');
                  loadDeliveries(subscription, holder);
                },
                function (error) {
                  say('Could not redeliver ' + delivery.eventId + ': ' + error.message);
                },
              );
            }),
          );
        });
        if (deliveries.length === 0) holder.appendChild(el('p', 'No deliveries yet.'));
      },
      function (error) {
        holder.textContent = 'Could not load the deliveries: ' + error.message;
      },
    );
  }

  $('email').focus();
})();
